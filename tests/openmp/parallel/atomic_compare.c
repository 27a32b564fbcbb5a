/* Checks OpenMP 5.1 atomic compare forms: min/max (x = x < e ? e : x), compare-and-swap (if (x == e) { x = d; }) with capture of the old value and of the success flag; CAS-increment loops lose no updates and each thread counts exactly its own successes. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define N 1000

static int g_max = -1000000, g_min = 1000000;
static long g_cas = 0, g_cas2 = 0;
static double g_dmax = -1.0;

int main(void)
{
  omp_set_dynamic(0);
  int succ[T] = {0}, succ2[T] = {0}, team = 0, badid = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    if (t >= T) {
#pragma omp atomic
      badid++;
    } else {
      for (int i = 0; i < N; i++) {
        int val = (i * 7919 + t * 104729) % 100003 - 50000;
#pragma omp atomic compare
        g_max = g_max < val ? val : g_max;
#pragma omp atomic compare
        if (g_min > val) {
          g_min = val;
        }
        double dval = val * 0.5;
#pragma omp atomic compare
        g_dmax = g_dmax < dval ? dval : g_dmax;
        /* CAS loop, capturing the old value */
        for (;;) {
          long seen, old;
#pragma omp atomic read
          seen = g_cas;
#pragma omp atomic compare capture
          {
            old = g_cas;
            if (g_cas == seen) {
              g_cas = seen + 1;
            }
          }
          if (old == seen) {
            succ[t]++;
            break;
          }
        }
        /* CAS loop, capturing the success flag */
        for (;;) {
          long seen;
          int ok;
#pragma omp atomic read
          seen = g_cas2;
#pragma omp atomic compare capture
          {
            ok = g_cas2 == seen;
            if (ok) {
              g_cas2 = seen + 2;
            }
          }
          if (ok) {
            succ2[t]++;
            break;
          }
        }
      }
    }
  }
  check(T, team, "team size");
  check(0, badid, "out-of-range ids");
  int emax = -1000000, emin = 1000000;
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      int val = (i * 7919 + t * 104729) % 100003 - 50000;
      emax = emax < val ? val : emax;
      emin = emin > val ? val : emin;
    }
  check(emax, g_max, "compare max");
  check(emin, g_min, "compare min (if form)");
  check(emax, (long long)(g_dmax * 2), "double compare max (x2)");
  check((long long)T * N, g_cas, "CAS-increment (capture old value) final");
  check(2LL * T * N, g_cas2, "CAS-add-2 (capture success flag) final");
  for (int t = 0; t < T; t++) {
    check(N, succ[t], "thread %d CAS successes (old-value form)", t);
    check(N, succ2[t], "thread %d CAS successes (flag form)", t);
  }
  return failures != 0;
}
