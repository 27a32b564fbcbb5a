/* Checks single nowait: 2000 consecutive nowait singles (threads racing ahead of each other) are each executed exactly once, then a barrier; repeated for teams of 2, 4 and 8. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define NS 2000

static int execs[NS];

int main(void)
{
  omp_set_dynamic(0);
  int teams[3] = {2, 4, 8};
  for (int ti = 0; ti < 3; ti++) {
    int k = teams[ti];
    for (int i = 0; i < NS; i++)
      execs[i] = 0;
    int total = 0;
#pragma omp parallel num_threads(k) shared(total)
    {
      int mine = 0;
      for (int i = 0; i < NS; i++) {
#pragma omp single nowait
        {
#pragma omp atomic
          execs[i]++;
          mine++;
        }
      }
#pragma omp atomic
      total += mine;
#pragma omp barrier
      /* a second round after the barrier continues the sequence of single constructs */
      for (int i = 0; i < NS; i += 2) {
#pragma omp single nowait
        {
#pragma omp atomic
          execs[i]++;
        }
      }
    }
    check(NS, total, "team of %d: single bodies executed in round 1", k);
    for (int i = 0; i < NS; i++)
      check(i % 2 == 0 ? 2 : 1, execs[i], "team of %d: executions of single #%d", k, i);
  }
  return failures != 0;
}
