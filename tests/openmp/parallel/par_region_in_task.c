/* Checks parallel regions started from inside explicit tasks: the new team nests under the task's team (level 2, ancestor = the thread that runs the task), gets its requested size when max-active-levels allows, and all tasks' regions complete. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define NT 12

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  static int cnt[NT], mask[NT], lvl_bad[NT], anc_ok[NT];
#pragma omp parallel num_threads(3)
  {
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task firstprivate(i)
      {
        int runner = omp_get_thread_num();
        int k = 1 + i % 3;
#pragma omp parallel num_threads(k)
        {
#pragma omp atomic
          cnt[i]++;
#pragma omp atomic
          mask[i] |= 1 << (omp_get_thread_num() & 15);
          if (omp_get_level() != 2 || omp_get_active_level() != (k > 1 ? 2 : 1)) {
#pragma omp atomic
            lvl_bad[i]++;
          }
          if (omp_get_ancestor_thread_num(1) == runner && omp_get_team_size(1) == 3) {
#pragma omp atomic
            anc_ok[i]++;
          }
        }
      }
    }
  }
  for (int i = 0; i < NT; i++) {
    int k = 1 + i % 3;
    check(k, cnt[i], "task %d: team size of its region", i);
    check((1 << k) - 1, mask[i], "task %d: id mask", i);
    check(0, lvl_bad[i], "task %d: threads with a wrong level/active level", i);
    check(k, anc_ok[i], "task %d: threads whose level-1 ancestor is the task's thread", i);
  }
  return failures != 0;
}
