/* Checks synchronisation constructs inside nested active teams: single with copyprivate, master and masked (thread 0 / filter of the inner team, not the outer one), critical across all inner teams, and barriers, for 2 outer x 3 inner threads. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define ITERS 100

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  static int single_cnt[2][ITERS], master_who[2][ITERS], masked_who[2][ITERS], master_cnt[2][ITERS], masked_cnt[2][ITERS];
  int cp_bad = 0, team_bad = 0;
  long crit = 0;
#pragma omp parallel num_threads(2)
  {
    int a = omp_get_thread_num() & 1;
#pragma omp parallel num_threads(3)
    {
      int b = omp_get_thread_num();
      if (omp_get_num_threads() != 3) {
#pragma omp atomic
        team_bad++;
      }
      for (int i = 0; i < ITERS; i++) {
        int v = -1;
#pragma omp single copyprivate(v)
        {
          v = a * 100000 + i;
#pragma omp atomic
          single_cnt[a][i]++;
        }
        if (v != a * 100000 + i) {
#pragma omp atomic
          cp_bad++;
        }
#pragma omp master
        {
#pragma omp atomic
          master_cnt[a][i]++;
          master_who[a][i] = b;
        }
#pragma omp masked filter(2)
        {
#pragma omp atomic
          masked_cnt[a][i]++;
          masked_who[a][i] = b;
        }
#pragma omp critical
        crit++;
#pragma omp barrier
      }
    }
  }
  check(0, team_bad, "inner threads not in a 3-thread team");
  check(0, cp_bad, "inner threads with a wrong copyprivate value");
  check(2L * 3 * ITERS, crit, "critical counter across inner teams");
  for (int a = 0; a < 2; a++)
    for (int i = 0; i < ITERS; i++) {
      check(1, single_cnt[a][i], "team %d iteration %d: single executions", a, i);
      check(1, master_cnt[a][i], "team %d iteration %d: master executions", a, i);
      check(0, master_who[a][i], "team %d iteration %d: inner thread running master", a, i);
      check(1, masked_cnt[a][i], "team %d iteration %d: masked filter(2) executions", a, i);
      check(2, masked_who[a][i], "team %d iteration %d: inner thread running masked filter(2)", a, i);
    }
  return failures != 0;
}
