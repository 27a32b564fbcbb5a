// Checks cancel parallel (OMP_CANCELLATION=true): thread 0 cancels before an explicit barrier it never reaches, so no thread may pass that barrier and nothing after the cancel runs; later regions run normally.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_parallel.c"

#include "omp_check.h"

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  for (int r = 0; r < 5; r++) {
    int after_cancel = 0, after_barrier = 0, started = 0, loop_hits = 0;
#pragma omp parallel shared(after_cancel, after_barrier, started, loop_hits)
    {
#pragma omp atomic
      started++;
      /* a worksharing loop completed before the cancel (its end barrier is cancellation-aware) */
#pragma omp for schedule(dynamic, 4)
      for (int i = 0; i < 100; i++) {
#pragma omp atomic
        loop_hits++;
      }
      if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
#pragma omp atomic
        after_cancel++;
      }
      /* thread 0 never arrives here: the others can only leave through cancellation */
#pragma omp barrier
#pragma omp atomic
      after_barrier++;
    }
    EXPECT(0, after_cancel, "round %d: statements after cancel parallel", r);
    EXPECT(0, after_barrier, "round %d: threads past the barrier of a cancelled region", r);
    EXPECT(1, started >= 1, "round %d: region started", r);
    EXPECT(100, loop_hits, "round %d: iterations of the loop that ended before the cancel", r);
    /* cancellation does not leak into a new region */
    int full = 0, nthr = 0;
#pragma omp parallel shared(full, nthr)
    {
#pragma omp barrier
#pragma omp cancellation point parallel
#pragma omp atomic
      full++;
#pragma omp single
      nthr = omp_get_num_threads();
    }
    EXPECT(nthr, full, "round %d: threads completing an uncancelled region", r);
  }
  return failures != 0;
}
