/* Checks single copyprivate of scalars (int, long, double, char, pointer): after each of 300 singles every thread's private copies equal the values set by the one executing thread. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define ITERS 300
#define T 4

static int table[ITERS];

int main(void)
{
  omp_set_dynamic(0);
  static int ok[ITERS][T], from[ITERS][T];
  for (int i = 0; i < ITERS; i++)
    table[i] = i * 3;
  int team = 0;
#pragma omp parallel num_threads(T) shared(team)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    for (int i = 0; i < ITERS; i++) {
      int vi = -1, src = -1;
      long vl = -1;
      double vd = -1.0;
      char vc = 0;
      int *vp = NULL;
#pragma omp single copyprivate(vi, vl, vd, vc, vp, src)
      {
        vi = i;
        vl = 1000000000000L + i;
        vd = i + 0.5;
        vc = (char)('a' + i % 26);
        vp = &table[i];
        src = omp_get_thread_num();
      }
      ok[i][t] = vi == i && vl == 1000000000000L + i && vd == i + 0.5 && vc == (char)('a' + i % 26) &&
                 vp == &table[i] && *vp == i * 3;
      from[i][t] = src;
    }
  }
  check(T, team, "team size");
  for (int i = 0; i < ITERS; i++)
    for (int t = 0; t < T; t++) {
      check(1, ok[i][t], "single #%d: thread %d received the broadcast values", i, t);
      check(from[i][0], from[i][t], "single #%d: thread %d got the same source thread as thread 0", i, t);
    }
  return failures != 0;
}
