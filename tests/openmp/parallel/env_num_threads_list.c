/* Checks OMP_NUM_THREADS=3,2 with OMP_MAX_ACTIVE_LEVELS=2 (see .env): 3 threads at level 1, omp_get_max_threads() is 2 inside them, each nested region has 2 threads, and the last list element persists at deeper levels. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_NUM_THREADS", "3,2");
  omp_set_dynamic(0);
  check(3, omp_get_max_threads(), "sequential omp_get_max_threads()");
  check(2, omp_get_max_active_levels(), "omp_get_max_active_levels()");
  for (int rep = 0; rep < 30; rep++) {
    int outer = 0, inner_max_bad = 0, inner_cnt[3] = {0, 0, 0}, deep_max_bad = 0, bad = 0;
#pragma omp parallel
    {
      int a = omp_get_thread_num();
#pragma omp atomic
      outer++;
      if (omp_get_max_threads() != 2) {
#pragma omp atomic
        inner_max_bad++;
      }
#pragma omp parallel
      {
        if (a < 0 || a > 2) {
#pragma omp atomic
          bad++;
        } else {
#pragma omp atomic
          inner_cnt[a]++;
        }
        if (omp_get_max_threads() != 2) {
#pragma omp atomic
          deep_max_bad++;
        }
      }
    }
    check(3, outer, "rep %d: level-1 team size", rep);
    check(0, inner_max_bad, "rep %d: level-1 threads with omp_get_max_threads() != 2", rep);
    check(0, bad, "rep %d: out-of-range outer ids", rep);
    for (int a = 0; a < 3; a++)
      check(2, inner_cnt[a], "rep %d: nested team size under thread %d", rep, a);
    check(0, deep_max_bad, "rep %d: level-2 threads with omp_get_max_threads() != 2", rep);
  }
  return failures != 0;
}
