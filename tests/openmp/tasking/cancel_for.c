// Checks cancel for (OMP_CANCELLATION=true) with schedule(static,1) (the cancelling thread runs none of its later iterations) and schedule(dynamic): nothing after the cancel runs, the team continues after the loop, a later loop runs fully.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_for.c"

#include "omp_check.h"

#define N 400

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  static int hit[N], hit2[N];
  for (int c = 5; c < N; c += 97) {
    int after_cancel = 0, continued = 0, nthr = 1;
    memset(hit, 0, sizeof hit);
    memset(hit2, 0, sizeof hit2);
#pragma omp parallel shared(after_cancel, continued, nthr, hit, hit2)
    {
#pragma omp single
      nthr = omp_get_num_threads();
#pragma omp for schedule(static, 1)
      for (int i = 0; i < N; i++) {
        hit[i] = 1;
        if (i == c) {
#pragma omp cancel for
#pragma omp atomic
          after_cancel++;
        }
#pragma omp cancellation point for
      }
#pragma omp atomic
      continued++;
#pragma omp for schedule(dynamic, 4)
      for (int i = 0; i < N; i++)
        hit2[i]++;
    }
    /* schedule(static,1): iteration i belongs to thread i % nthr */
    int later = 0;
    for (int i = c + nthr; i < N; i += nthr)
      later += hit[i];
    EXPECT(0, later, "c=%d: later iterations of the cancelling thread that ran", c);
    EXPECT(1, hit[c], "c=%d: the cancelling iteration ran", c);
    EXPECT(0, after_cancel, "c=%d: statements after cancel for", c);
    EXPECT(nthr, continued, "c=%d: threads continuing after the cancelled loop", c);
    int bad = 0;
    for (int i = 0; i < N; i++)
      bad += hit2[i] != 1;
    EXPECT(0, bad, "c=%d: iterations of the following loop not run once", c);
  }
  /* dynamic schedule (the loop end goes through the runtime): each iteration runs at most once,
     nothing after the cancel runs, the team continues after the loop */
  for (int c = 3; c < N; c += 131) {
    int after_cancel = 0, continued = 0, nthr = 1, over = 0;
    memset(hit, 0, sizeof hit);
#pragma omp parallel shared(after_cancel, continued, nthr, hit, over)
    {
#pragma omp single
      nthr = omp_get_num_threads();
#pragma omp for schedule(dynamic, 2)
      for (int i = 0; i < N; i++) {
        if (__atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED) > 1)
          __atomic_store_n(&over, 1, __ATOMIC_RELAXED);
        if (i == c) {
#pragma omp cancel for
#pragma omp atomic
          after_cancel++;
        }
#pragma omp cancellation point for
        spin(100);
      }
#pragma omp atomic
      continued++;
    }
    EXPECT(0, after_cancel, "dynamic c=%d: statements after cancel for", c);
    EXPECT(0, over, "dynamic c=%d: iterations run more than once", c);
    EXPECT(1, hit[c], "dynamic c=%d: the cancelling iteration ran", c);
    EXPECT(nthr, continued, "dynamic c=%d: threads continuing after the cancelled loop", c);
  }
  return failures != 0;
}
