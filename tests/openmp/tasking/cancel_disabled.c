// Checks that without OMP_CANCELLATION (default false) omp_get_cancellation()==0 and cancel parallel/for/sections/taskgroup and cancellation points are no-ops: all work and all code after the cancels runs.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_disabled.c"

#include "omp_check.h"

#define N 200

int main(void)
{
  EXPECT(0, omp_get_cancellation(), "omp_get_cancellation() by default");
  int after_par = 0, nthr = 0, for_hits = 0, after_for = 0, sec = 0, after_sec = 0;
  int tg_tasks = 0, after_tg = 0, tl_hits = 0;
#pragma omp parallel shared(after_par, nthr, for_hits, after_for, sec, after_sec, tg_tasks, after_tg, tl_hits)
  {
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp cancel parallel
#pragma omp cancellation point parallel
#pragma omp atomic
    after_par++;
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      for_hits++;
      if (i == 3) {
#pragma omp cancel for
#pragma omp atomic
        after_for++;
      }
#pragma omp cancellation point for
    }
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp cancel sections
#pragma omp atomic
        after_sec++;
      }
#pragma omp section
      {
#pragma omp cancellation point sections
#pragma omp atomic
        sec++;
      }
    }
#pragma omp single
    {
#pragma omp taskgroup
      for (int k = 0; k < 20; k++) {
#pragma omp task shared(tg_tasks, after_tg) firstprivate(k)
        {
          if (k == 0) {
#pragma omp cancel taskgroup
#pragma omp atomic
            after_tg++;
          }
#pragma omp cancellation point taskgroup
#pragma omp atomic
          tg_tasks++;
        }
      }
#pragma omp taskloop grainsize(5)
      for (int i = 0; i < N; i++) {
        if (i == 0) {
#pragma omp cancel taskgroup
        }
#pragma omp atomic
        tl_hits++;
      }
    }
  }
  EXPECT(nthr, after_par, "threads past cancel parallel");
  EXPECT(N, for_hits, "loop iterations");
  EXPECT(1, after_for, "statement after cancel for");
  EXPECT(1, after_sec, "statement after cancel sections");
  EXPECT(1, sec, "section with cancellation point");
  EXPECT(20, tg_tasks, "taskgroup tasks past the cancellation point");
  EXPECT(1, after_tg, "statement after cancel taskgroup");
  EXPECT(N, tl_hits, "taskloop iterations after a cancel taskgroup in the body");
  return failures != 0;
}
