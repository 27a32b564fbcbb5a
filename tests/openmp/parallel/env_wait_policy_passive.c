/* Checks OMP_WAIT_POLICY=passive (see .env): with sleeping waiters, barriers, singles, critical, locks and back-to-back regions (teams of 4 and 8) still give exact results. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#define PH 100

int main(void)
{
  require_env("OMP_WAIT_POLICY", "passive");
  omp_set_dynamic(0);
  omp_lock_t l;
  omp_init_lock(&l);
  for (int k = 4; k <= 8; k += 4) {
    int slot[8], errors = 0, singles = 0;
    long crit = 0, locked = 0;
#pragma omp parallel num_threads(k)
    {
      int t = omp_get_thread_num();
      for (int p = 0; p < PH; p++) {
        slot[t] = p * 8 + t;
#pragma omp barrier
        for (int j = 0; j < k; j++)
          if (slot[j] != p * 8 + j) {
#pragma omp atomic
            errors++;
          }
#pragma omp single
        singles++;
#pragma omp critical
        crit++;
        omp_set_lock(&l);
        locked++;
        omp_unset_lock(&l);
      }
    }
    check(0, errors, "team of %d: stale slots after barriers", k);
    check(PH, singles, "team of %d: single executions", k);
    check((long long)k * PH, crit, "team of %d: critical counter", k);
    check((long long)k * PH, locked, "team of %d: lock counter", k);
  }
  omp_destroy_lock(&l);
  int cnt = 0;
  for (int r = 0; r < 300; r++) {
#pragma omp parallel num_threads(1 + r % 4)
    {
#pragma omp atomic
      cnt++;
    }
  }
  check(75 * (1 + 2 + 3 + 4), cnt, "threads over 300 back-to-back regions");
  return failures != 0;
}
