/* Checks omp_get_level/omp_get_active_level/omp_get_ancestor_thread_num/omp_get_team_size at three active nesting levels (2x2x2 threads): every (a,b,c) path is seen once with consistent ancestors, and out-of-range levels return -1. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

struct rec {
  int cnt, lvl, alvl, anc[5], ts[5], bad_neg;
};

static struct rec r[2][2][2];

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(3);
  check(-1, omp_get_ancestor_thread_num(1), "sequential: omp_get_ancestor_thread_num(1)");
  check(-1, omp_get_team_size(1), "sequential: omp_get_team_size(1)");
  check(0, omp_get_ancestor_thread_num(0), "sequential: omp_get_ancestor_thread_num(0)");
  check(1, omp_get_team_size(0), "sequential: omp_get_team_size(0)");
  for (int rep = 0; rep < 10; rep++) {
    int bad = 0;
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++)
        for (int c = 0; c < 2; c++)
          r[a][b][c] = (struct rec){0, -9, -9, {-9, -9, -9, -9, -9}, {-9, -9, -9, -9, -9}, 0};
#pragma omp parallel num_threads(2)
    {
      int a = omp_get_thread_num();
#pragma omp parallel num_threads(2)
      {
        int b = omp_get_thread_num();
#pragma omp parallel num_threads(2)
        {
          int c = omp_get_thread_num();
          if ((a | b | c) & ~1) {
#pragma omp atomic
            bad++;
          } else {
            struct rec *x = &r[a][b][c];
#pragma omp atomic
            x->cnt++;
            x->lvl = omp_get_level();
            x->alvl = omp_get_active_level();
            for (int l = 0; l <= 4; l++) {
              x->anc[l] = omp_get_ancestor_thread_num(l);
              x->ts[l] = omp_get_team_size(l);
            }
            x->bad_neg = omp_get_ancestor_thread_num(-1) != -1 || omp_get_team_size(-1) != -1;
          }
        }
      }
    }
    check(0, bad, "rep %d: out-of-range thread ids", rep);
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++)
        for (int c = 0; c < 2; c++) {
          struct rec *x = &r[a][b][c];
          check(1, x->cnt, "rep %d: path (%d,%d,%d) seen", rep, a, b, c);
          check(3, x->lvl, "rep %d (%d,%d,%d): omp_get_level()", rep, a, b, c);
          check(3, x->alvl, "rep %d (%d,%d,%d): omp_get_active_level()", rep, a, b, c);
          int expa[5] = {0, a, b, c, -1}, expt[5] = {1, 2, 2, 2, -1};
          for (int l = 0; l <= 4; l++) {
            check(expa[l], x->anc[l], "rep %d (%d,%d,%d): omp_get_ancestor_thread_num(%d)", rep, a, b, c, l);
            check(expt[l], x->ts[l], "rep %d (%d,%d,%d): omp_get_team_size(%d)", rep, a, b, c, l);
          }
          check(0, x->bad_neg, "rep %d (%d,%d,%d): level -1 queries return -1", rep, a, b, c);
        }
  }
  return failures != 0;
}
