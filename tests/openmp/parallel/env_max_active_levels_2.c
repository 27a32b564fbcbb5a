/* Checks OMP_MAX_ACTIVE_LEVELS=2 (see .env): two nested levels are active (2x2 threads) and a third is inactive (team of 1, level 3, active level 2). */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_MAX_ACTIVE_LEVELS", "2");
  omp_set_dynamic(0);
  check(2, omp_get_max_active_levels(), "omp_get_max_active_levels()");
  for (int rep = 0; rep < 10; rep++) {
    int l2 = 0, l3 = 0, bad2 = 0, bad3 = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
      {
#pragma omp atomic
        l2++;
        if (omp_get_num_threads() != 2 || omp_get_active_level() != 2) {
#pragma omp atomic
          bad2++;
        }
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic
          l3++;
          if (omp_get_num_threads() != 1 || omp_get_level() != 3 || omp_get_active_level() != 2) {
#pragma omp atomic
            bad3++;
          }
        }
      }
    }
    check(4, l2, "rep %d: threads at level 2", rep);
    check(0, bad2, "rep %d: level-2 threads with wrong team size/active level", rep);
    check(4, l3, "rep %d: threads at level 3", rep);
    check(0, bad3, "rep %d: level-3 threads with wrong team size/levels", rep);
  }
  return failures != 0;
}
