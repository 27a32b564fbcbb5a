/* Checks that nested active teams have independent barriers and singles: 2 outer threads each run a 3-thread inner team doing 100 barrier phases on team-local slots and one single per phase. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define PH 100

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  static int single_cnt[2][PH];
  int slot[2][3];
  int errors = 0, inner_sizes = 0;
#pragma omp parallel num_threads(2)
  {
    int a = omp_get_thread_num() & 1;
#pragma omp parallel num_threads(3)
    {
      int b = omp_get_thread_num();
      int n = omp_get_num_threads();
#pragma omp atomic
      inner_sizes += n == 3;
      for (int p = 0; p < PH && b < 3; p++) {
        slot[a][b] = p * 10 + b + 1000 * a;
#pragma omp barrier
        for (int j = 0; j < n && j < 3; j++)
          if (slot[a][j] != p * 10 + j + 1000 * a) {
#pragma omp atomic
            errors++;
          }
#pragma omp single
        {
#pragma omp atomic
          single_cnt[a][p]++;
        }
      }
    }
  }
  check(6, inner_sizes, "inner threads that saw a 3-thread team");
  check(0, errors, "stale team-local slots seen after barriers");
  for (int a = 0; a < 2; a++)
    for (int p = 0; p < PH; p++)
      check(1, single_cnt[a][p], "inner team %d phase %d: single executions", a, p);
  return failures != 0;
}
