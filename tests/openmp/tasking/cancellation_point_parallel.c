// Checks 'cancellation point parallel' (OMP_CANCELLATION=true): threads spinning on a cancellation point after thread 0 cancelled the region leave it (they have no other exit), and code after cancel never runs.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancellation_point_parallel.c"

#include "omp_check.h"

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  for (int r = 0; r < 5; r++) {
    int escaped = 0, after_cancel = 0, cancelling = 0, in_loop = 0;
#pragma omp parallel shared(escaped, after_cancel, cancelling, in_loop)
    {
      if (omp_get_thread_num() == 0) {
        __atomic_store_n(&cancelling, 1, __ATOMIC_SEQ_CST);
#pragma omp cancel parallel
#pragma omp atomic
        after_cancel++;
      } else {
        while (!__atomic_load_n(&cancelling, __ATOMIC_SEQ_CST))
          spin(50);
#pragma omp atomic
        in_loop++;
        /* the only way out of this loop is the cancellation point */
        for (;;) {
#pragma omp cancellation point parallel
          spin(50);
        }
      }
#pragma omp atomic
      escaped++;
    }
    EXPECT(0, escaped, "round %d: threads that reached the end of the cancelled region body", r);
    EXPECT(0, after_cancel, "round %d: statements after cancel parallel", r);
  }
  return failures != 0;
}
