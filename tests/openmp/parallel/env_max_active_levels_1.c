/* Checks OMP_MAX_ACTIVE_LEVELS=1 (see .env): omp_get_max_active_levels() is 1 and a nested region is inactive (team of 1, level 2, active level 1) while the outer one is active. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_MAX_ACTIVE_LEVELS", "1");
  omp_set_dynamic(0);
  check(1, omp_get_max_active_levels(), "omp_get_max_active_levels()");
  for (int rep = 0; rep < 50; rep++) {
    int outer = 0, inner = 0, bad = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp atomic
      outer++;
#pragma omp parallel num_threads(3)
      {
#pragma omp atomic
        inner++;
        if (omp_get_num_threads() != 1 || omp_get_level() != 2 || omp_get_active_level() != 1 ||
            omp_get_team_size(2) != 1 || omp_get_team_size(1) != 3) {
#pragma omp atomic
          bad++;
        }
      }
    }
    check(3, outer, "rep %d: outer team size", rep);
    check(3, inner, "rep %d: threads in the 3 inactive nested regions", rep);
    check(0, bad, "rep %d: nested threads with wrong level/team info", rep);
  }
  return failures != 0;
}
