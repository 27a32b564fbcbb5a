// Checks reductions on nowait loops and sections (several back to back, then an explicit barrier), 60 times in one region: after the barrier every thread reads the complete results.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 700
#define REPS 60

int main(void) {
  long es = 0;
  int em = -1;
  for (int i = 0; i < N; i++) {
    es += (i * 17) % 101;
    em = em > (i * 29) % 1000 ? em : (i * 29) % 1000;
  }
  long s = 0, s2 = 0;
  int m = -1, t = 0, nthr = 0, good = 0;
  double d = 0;
#pragma omp parallel reduction(+ : good)
  {
#pragma omp single nowait
    nthr = omp_get_num_threads();
    for (int r = 0; r < REPS; r++) {
#pragma omp single
      s = 0, s2 = 0, m = -1, t = 0, d = 0;
      /* implicit barrier of single: the resets are seen by all */
#pragma omp for schedule(dynamic, 8) reduction(+ : s) reduction(max : m) nowait
      for (int i = 0; i < N; i++) {
        s += (i * 17) % 101;
        m = m > (i * 29) % 1000 ? m : (i * 29) % 1000;
      }
#pragma omp for schedule(static) reduction(+ : s2, d) nowait
      for (int i = 0; i < N; i++) {
        s2 += i;
        d += 0.5;
      }
#pragma omp sections reduction(+ : t) nowait
      {
#pragma omp section
        t += 1;
#pragma omp section
        t += 20;
#pragma omp section
        t += 300 + r;
      }
#pragma omp barrier
      good += s == es && m == em && s2 == (long)N * (N - 1) / 2 && t == 321 + r && d == N * 0.5;
#pragma omp barrier
    }
  }
  CHECK(nthr * REPS, good, "reads of complete reductions after nowait + barrier (team %d)", nthr);
  CHECK(es, s, "last + result");
  CHECK(em, m, "last max result");
  return fails != 0;
}
