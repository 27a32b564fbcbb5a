/* Checks omp_set_max_active_levels: with 1 a nested region is inactive (team of 1, level 2, active level 1), with 2 it is active (requested size, active level 2); ancestor ids and team sizes are right in every inner thread. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define O 2
#define I 3

struct rec {
  int cnt, level, alevel, nth, anc1, ts1, ts2, inpar;
};

static void run(int mal, int rep)
{
  struct rec r[O][I];
  int outer_cnt = 0, bad_ids = 0;
  for (int a = 0; a < O; a++)
    for (int b = 0; b < I; b++)
      r[a][b] = (struct rec){0, -1, -1, -1, -1, -1, -1, -1};
  omp_set_max_active_levels(mal);
  check(mal, omp_get_max_active_levels(), "omp_get_max_active_levels() after set(%d)", mal);
#pragma omp parallel num_threads(O)
  {
    int a = omp_get_thread_num();
#pragma omp atomic
    outer_cnt++;
#pragma omp parallel num_threads(I)
    {
      int b = omp_get_thread_num();
      if (a < 0 || a >= O || b < 0 || b >= I) {
#pragma omp atomic
        bad_ids++;
      } else {
        struct rec *x = &r[a][b];
#pragma omp atomic
        x->cnt++;
        x->level = omp_get_level();
        x->alevel = omp_get_active_level();
        x->nth = omp_get_num_threads();
        x->anc1 = omp_get_ancestor_thread_num(1);
        x->ts1 = omp_get_team_size(1);
        x->ts2 = omp_get_team_size(2);
        x->inpar = omp_in_parallel();
      }
    }
  }
  int inner = mal >= 2 ? I : 1;
  check(O, outer_cnt, "mal=%d rep=%d: outer team size", mal, rep);
  check(0, bad_ids, "mal=%d rep=%d: out-of-range ids", mal, rep);
  for (int a = 0; a < O; a++)
    for (int b = 0; b < I; b++) {
      struct rec *x = &r[a][b];
      check(b < inner, x->cnt, "mal=%d rep=%d: inner thread (%d,%d) ran", mal, rep, a, b);
      if (b >= inner)
        continue;
      check(2, x->level, "mal=%d rep=%d (%d,%d): omp_get_level()", mal, rep, a, b);
      check(mal >= 2 ? 2 : 1, x->alevel, "mal=%d rep=%d (%d,%d): omp_get_active_level()", mal, rep, a, b);
      check(inner, x->nth, "mal=%d rep=%d (%d,%d): omp_get_num_threads()", mal, rep, a, b);
      check(a, x->anc1, "mal=%d rep=%d (%d,%d): omp_get_ancestor_thread_num(1)", mal, rep, a, b);
      check(O, x->ts1, "mal=%d rep=%d (%d,%d): omp_get_team_size(1)", mal, rep, a, b);
      check(inner, x->ts2, "mal=%d rep=%d (%d,%d): omp_get_team_size(2)", mal, rep, a, b);
      check(1, x->inpar, "mal=%d rep=%d (%d,%d): omp_in_parallel()", mal, rep, a, b);
    }
}

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 12; rep++) {
    run(1, rep);
    run(2, rep);
  }
  return failures != 0;
}
