/* Checks masked (OpenMP 5.1): without filter only thread 0 runs the block; with filter(f) only thread f runs it; with a filter beyond the team size nobody does; no implied barrier. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define ITERS 200

int main(void)
{
  omp_set_dynamic(0);
  static int execs[ITERS][T + 3], plain[ITERS], plain_who[ITERS];
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    for (int i = 0; i < ITERS; i++) {
#pragma omp masked
      {
#pragma omp atomic
        plain[i]++;
        plain_who[i] = t;
      }
      for (int f = 0; f < T + 3; f++) {
#pragma omp masked filter(f)
        {
          if (t == f) {
#pragma omp atomic
            execs[i][f]++;
          } else {
#pragma omp atomic
            execs[i][f] += 100; /* wrong thread */
          }
        }
      }
    }
  }
  for (int i = 0; i < ITERS; i++) {
    check(1, plain[i], "iteration %d: executions of masked without filter", i);
    check(0, plain_who[i], "iteration %d: thread that ran masked without filter", i);
    for (int f = 0; f < T + 3; f++)
      check(f < T ? 1 : 0, execs[i][f], "iteration %d: masked filter(%d) executions (+100 per wrong thread)", i, f);
  }
  return failures != 0;
}
