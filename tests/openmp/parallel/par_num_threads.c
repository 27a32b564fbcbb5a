/* Checks num_threads(k), k = 1..8 (beyond the 2 cores): with dyn-var false the team has exactly k threads, every id 0..k-1 is seen exactly once and omp_get_num_threads() == k in every thread. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define MAXT 8
#define REPS 15

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < REPS; rep++) {
    for (int k = 1; k <= MAXT; k++) {
      int seen[MAXT + 1] = {0}; /* slot MAXT counts out-of-range ids */
      int nth[MAXT] = {0};
#pragma omp parallel num_threads(k) shared(seen, nth)
      {
        int t = omp_get_thread_num();
        int idx = (t >= 0 && t < MAXT) ? t : MAXT;
#pragma omp atomic
        seen[idx]++;
        if (idx < MAXT) {
#pragma omp atomic write
          nth[idx] = omp_get_num_threads();
        }
      }
      for (int t = 0; t < MAXT; t++) {
        check(t < k ? 1 : 0, seen[t], "k=%d rep=%d: times thread id %d seen", k, rep, t);
        if (t < k)
          check(k, nth[t], "k=%d rep=%d: omp_get_num_threads() in thread %d", k, rep, t);
      }
      check(0, seen[MAXT], "k=%d rep=%d: out-of-range thread ids", k, rep);
    }
  }
  return failures != 0;
}
