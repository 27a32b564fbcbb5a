/* Checks omp_in_parallel(): false in sequential code, in if(false) and num_threads(1) (inactive) regions and in an orphaned call from sequential code; true in an active team, in an inactive region nested in an active one, and in a task inside an active region. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

static int orphan_in_parallel(void) { return omp_in_parallel(); }

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(1);
  check(0, omp_in_parallel(), "sequential part");
  check(0, orphan_in_parallel(), "orphaned call from sequential part");
  for (int rep = 0; rep < 100; rep++) {
    int v_if0 = -1, v_one = -1, v_one_level = -1, v_one_alevel = -1;
    int v_team[3] = {-1, -1, -1}, v_nested[3] = {-1, -1, -1}, v_task = -1, v_orph[3] = {-1, -1, -1};
    int v_inner_after_inactive = -1;
    int zero = rep < 0; /* always 0, not a constant */
#pragma omp parallel if (zero) num_threads(3)
    v_if0 = omp_in_parallel();
#pragma omp parallel num_threads(1)
    {
      v_one = omp_in_parallel();
      v_one_level = omp_get_level();
      v_one_alevel = omp_get_active_level();
    }
#pragma omp parallel num_threads(3)
    {
      int t = omp_get_thread_num();
      if (t < 3) {
        v_team[t] = omp_in_parallel();
        v_orph[t] = orphan_in_parallel();
      }
      /* max-active-levels is 1: this nested region is inactive but enclosed by an active one */
#pragma omp parallel num_threads(2)
      {
        if (t < 3 && omp_get_thread_num() == 0)
          v_nested[t] = omp_in_parallel();
      }
#pragma omp single
      {
#pragma omp task shared(v_task)
        v_task = omp_in_parallel();
#pragma omp taskwait
      }
    }
    /* inactive outer region: the nested one is the first active level */
#pragma omp parallel num_threads(1)
    {
#pragma omp parallel num_threads(2)
      {
        if (omp_get_thread_num() == 1)
          v_inner_after_inactive = omp_in_parallel();
      }
    }
    check(0, v_if0, "rep %d: if(false) region", rep);
    check(0, v_one, "rep %d: num_threads(1) region", rep);
    check(1, v_one_level, "rep %d: omp_get_level() in num_threads(1) region", rep);
    check(0, v_one_alevel, "rep %d: omp_get_active_level() in num_threads(1) region", rep);
    for (int t = 0; t < 3; t++) {
      check(1, v_team[t], "rep %d: active team, thread %d", rep, t);
      check(1, v_orph[t], "rep %d: orphaned call in active team, thread %d", rep, t);
      check(1, v_nested[t], "rep %d: inactive nested region under thread %d", rep, t);
    }
    check(1, v_task, "rep %d: explicit task in active region", rep);
    check(1, v_inner_after_inactive, "rep %d: active region nested in an inactive one", rep);
  }
  check(0, omp_in_parallel(), "sequential part at the end");
  return failures != 0;
}
