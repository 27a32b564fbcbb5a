/* Checks OMP_NESTED=false (deprecated, see .env): omp_get_nested() is false, max-active-levels is 1 and nested regions are inactive (team of 1). */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_NESTED", "false");
  omp_set_dynamic(0);
  check(0, omp_get_nested(), "omp_get_nested()");
  check(1, omp_get_max_active_levels(), "omp_get_max_active_levels()");
  for (int rep = 0; rep < 10; rep++) {
    int inner = 0, bad = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(3)
      {
#pragma omp atomic
        inner++;
        if (omp_get_num_threads() != 1 || omp_get_active_level() != 1) {
#pragma omp atomic
          bad++;
        }
      }
    }
    check(2, inner, "rep %d: threads in the 2 nested regions", rep);
    check(0, bad, "rep %d: nested threads in an active team", rep);
  }
  return failures != 0;
}
