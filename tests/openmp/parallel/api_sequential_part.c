/* Checks the omp.h queries in the sequential part (the implicit parallel region): thread 0 of 1, level 0, active level 0, ancestor/team size for level 0 and -1 for other levels, not in parallel, not final, team 0 of 1. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  check(0, omp_get_thread_num(), "omp_get_thread_num()");
  check(1, omp_get_num_threads(), "omp_get_num_threads()");
  check(0, omp_get_level(), "omp_get_level()");
  check(0, omp_get_active_level(), "omp_get_active_level()");
  check(0, omp_get_ancestor_thread_num(0), "omp_get_ancestor_thread_num(0)");
  check(1, omp_get_team_size(0), "omp_get_team_size(0)");
  check(-1, omp_get_ancestor_thread_num(1), "omp_get_ancestor_thread_num(1)");
  check(-1, omp_get_team_size(1), "omp_get_team_size(1)");
  check(-1, omp_get_ancestor_thread_num(-1), "omp_get_ancestor_thread_num(-1)");
  check(-1, omp_get_team_size(-1), "omp_get_team_size(-1)");
  check(0, omp_in_parallel(), "omp_in_parallel()");
  check(0, omp_in_final(), "omp_in_final()");
  check(1, omp_get_num_teams(), "omp_get_num_teams()");
  check(0, omp_get_team_num(), "omp_get_team_num()");
  /* the same after a parallel region has come and gone */
  int r = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp atomic
    r++;
    if (omp_get_num_teams() != 1 || omp_get_team_num() != 0) {
#pragma omp atomic
      r += 100;
    }
  }
  check(3, r, "threads in region (+100 per thread with wrong team num/count)");
  check(0, omp_get_thread_num(), "omp_get_thread_num() after a region");
  check(1, omp_get_num_threads(), "omp_get_num_threads() after a region");
  check(0, omp_get_level(), "omp_get_level() after a region");
  check(0, omp_in_parallel(), "omp_in_parallel() after a region");
  return failures != 0;
}
