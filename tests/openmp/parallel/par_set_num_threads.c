/* Checks omp_set_num_threads(n): omp_get_max_threads() returns n, a region without num_threads gets n threads (each id once, same value inside), and a num_threads clause overrides it for one region without changing the ICV. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define MAXT 8

static void run_team(int expect, const char *what, int n)
{
  int seen[MAXT + 1] = {0};
  int inner_max[MAXT] = {0};
#pragma omp parallel
  {
    int t = omp_get_thread_num();
    int idx = (t >= 0 && t < MAXT) ? t : MAXT;
#pragma omp atomic
    seen[idx]++;
    if (idx < MAXT) {
#pragma omp atomic write
      inner_max[idx] = omp_get_max_threads();
    }
  }
  for (int t = 0; t < MAXT; t++) {
    check(t < expect ? 1 : 0, seen[t], "%s n=%d: times thread %d seen", what, n, t);
    if (t < expect)
      check(n, inner_max[t], "%s n=%d: omp_get_max_threads() in thread %d", what, n, t);
  }
  check(0, seen[MAXT], "%s n=%d: out-of-range ids", what, n);
}

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 8; rep++) {
    for (int n = 1; n <= 6; n++) {
      omp_set_num_threads(n);
      check(n, omp_get_max_threads(), "omp_get_max_threads() after omp_set_num_threads(%d)", n);
      run_team(n, "region without clause", n);
      int k = 7 - n, cnt = 0;
#pragma omp parallel num_threads(k)
      {
#pragma omp atomic
        cnt++;
      }
      check(k, cnt, "num_threads(%d) after omp_set_num_threads(%d): team size", k, n);
      check(n, omp_get_max_threads(), "omp_get_max_threads() after a num_threads(%d) region", k);
      run_team(n, "second region without clause", n);
    }
  }
  return failures != 0;
}
