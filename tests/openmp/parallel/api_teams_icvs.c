/* Checks the OpenMP 5.1 teams ICV routines on the host: omp_set_num_teams/omp_get_max_teams and omp_set_teams_thread_limit/omp_get_teams_thread_limit round trip, and outside a teams region omp_get_num_teams()==1, omp_get_team_num()==0 in every thread. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  for (int n = 1; n <= 5; n++) {
    omp_set_num_teams(n);
    check(n, omp_get_max_teams(), "omp_get_max_teams() after omp_set_num_teams(%d)", n);
    omp_set_teams_thread_limit(n + 2);
    check(n + 2, omp_get_teams_thread_limit(), "omp_get_teams_thread_limit() after set(%d)", n + 2);
  }
  int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
  bad += omp_get_num_teams() != 1 || omp_get_team_num() != 0;
  check(0, bad, "threads outside teams with num_teams != 1 or team_num != 0");
  return failures != 0;
}
