/* Checks three nested num_threads(2) regions with max-active-levels 2: the third level is inactive (team of 1, level 3, active level 2, omp_get_team_size(3) == 1) and all 4 (a,b) paths reach it exactly once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  for (int rep = 0; rep < 15; rep++) {
    int cnt[2][2] = {{0}}, lvl[2][2], alvl[2][2], nth[2][2], ts3[2][2], anc2[2][2], anc3[2][2], bad = 0;
#pragma omp parallel num_threads(2)
    {
      int a = omp_get_thread_num();
#pragma omp parallel num_threads(2)
      {
        int b = omp_get_thread_num();
#pragma omp parallel num_threads(2)
        {
          if ((a | b) & ~1) {
#pragma omp atomic
            bad++;
          } else {
#pragma omp atomic
            cnt[a][b]++;
            lvl[a][b] = omp_get_level();
            alvl[a][b] = omp_get_active_level();
            nth[a][b] = omp_get_num_threads();
            ts3[a][b] = omp_get_team_size(3);
            anc2[a][b] = omp_get_ancestor_thread_num(2);
            anc3[a][b] = omp_get_ancestor_thread_num(3);
          }
        }
      }
    }
    check(0, bad, "rep %d: out-of-range ids", rep);
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        check(1, cnt[a][b], "rep %d (%d,%d): third-level threads", rep, a, b);
        if (cnt[a][b] != 1)
          continue;
        check(3, lvl[a][b], "rep %d (%d,%d): omp_get_level()", rep, a, b);
        check(2, alvl[a][b], "rep %d (%d,%d): omp_get_active_level()", rep, a, b);
        check(1, nth[a][b], "rep %d (%d,%d): omp_get_num_threads()", rep, a, b);
        check(1, ts3[a][b], "rep %d (%d,%d): omp_get_team_size(3)", rep, a, b);
        check(b, anc2[a][b], "rep %d (%d,%d): omp_get_ancestor_thread_num(2)", rep, a, b);
        check(0, anc3[a][b], "rep %d (%d,%d): omp_get_ancestor_thread_num(3)", rep, a, b);
      }
  }
  return failures != 0;
}
