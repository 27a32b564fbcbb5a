// Checks tasks in nested parallel regions (max-active-levels 2): inner-team tasks with dependences and taskwait, tasks bound to the right team level, and parallel regions opened inside tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "combo_nested_parallel_tasks.c"

#include "omp_check.h"

int main(void)
{
  omp_set_max_active_levels(2);
  int bad_level = 0, bad_val = 0, inner_regions = 0;
  long total = 0;
#pragma omp parallel num_threads(2) shared(bad_level, bad_val, inner_regions, total)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2) shared(bad_level, bad_val, total) firstprivate(outer)
    {
#pragma omp single
      {
        int x = 0;
        for (int i = 0; i < 50; i++) {
#pragma omp task depend(inout : x) shared(x, bad_level) firstprivate(i)
          {
            if (omp_get_level() != 2 || omp_get_active_level() != 2) {
#pragma omp atomic
              bad_level++;
            }
            if (x != i) {
#pragma omp atomic
              bad_level += 1000;
            }
            x = i + 1;
          }
        }
        long part = 0;
        for (int i = 0; i < 20; i++) {
#pragma omp task shared(part) firstprivate(i)
          {
#pragma omp atomic
            part += i + outer * 100;
          }
        }
#pragma omp taskwait
        if (x != 50 || part != 190 + outer * 2000) {
#pragma omp atomic
          bad_val++;
        }
#pragma omp atomic
        total += part;
      }
    }
    /* a parallel region opened inside an explicit task */
#pragma omp single
    for (int k = 0; k < 4; k++) {
#pragma omp task shared(inner_regions, bad_level) firstprivate(k)
      {
        int cnt = 0, n_in = 0;
#pragma omp parallel num_threads(2) shared(cnt, n_in)
        {
#pragma omp atomic
          cnt++;
#pragma omp single
          {
            n_in = omp_get_num_threads();
#pragma omp task shared(cnt)
            {
#pragma omp atomic
              cnt += 10;
            }
          }
        }
        if (cnt != n_in + 10) {
#pragma omp atomic
          bad_level += 100000;
        }
#pragma omp atomic
        inner_regions++;
      }
    }
  }
  EXPECT(0, bad_level, "tasks seeing the wrong nesting level or order");
  EXPECT(0, bad_val, "inner single results");
  EXPECT(2 * 190 + 2000, total, "sum over both inner teams");
  EXPECT(4, inner_regions, "parallel regions inside tasks");
  return failures != 0;
}
