/* Checks OMP_NESTED=true (deprecated, see .env): omp_get_nested() is true, max-active-levels is above 1 and a nested region is active with its requested team. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_NESTED", "true");
  omp_set_dynamic(0);
  check(1, omp_get_nested(), "omp_get_nested()");
  check(1, omp_get_max_active_levels() > 1, "omp_get_max_active_levels() > 1 (got %d)", omp_get_max_active_levels());
  for (int rep = 0; rep < 10; rep++) {
    int cnt[2] = {0, 0}, bad = 0;
#pragma omp parallel num_threads(2)
    {
      int a = omp_get_thread_num() & 1;
#pragma omp parallel num_threads(3)
      {
#pragma omp atomic
        cnt[a]++;
        if (omp_get_active_level() != 2) {
#pragma omp atomic
          bad++;
        }
      }
    }
    check(3, cnt[0], "rep %d: nested team under thread 0", rep);
    check(3, cnt[1], "rep %d: nested team under thread 1", rep);
    check(0, bad, "rep %d: nested threads whose active level was not 2", rep);
  }
  return failures != 0;
}
