// Checks that an undeferred task (if(0)) with depend clauses waits for its predecessor sibling tasks before running, and the encountering task continues only after it.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_if0_depend.c"

#include "omp_check.h"

int main(void)
{
  int x = 0, y = 0;
#pragma omp parallel shared(x, y)
#pragma omp single
  {
    for (int round = 0; round < 100; round++) {
      int seen = -1;
#pragma omp task depend(out : x) shared(x) firstprivate(round)
      {
        spin(3000);
        x = round + 1;
      }
#pragma omp task if (0) depend(in : x) shared(x, seen)
      seen = x;
      EXPECT(round + 1, seen, "if(0) reader saw writer's value in round %d", round);
    }
    /* Undeferred inout after several deferred readers: must wait for all of them (anti-dependence). */
    int reads[8];
    y = 42;
    for (int k = 0; k < 8; k++) {
#pragma omp task depend(in : y) shared(y, reads) firstprivate(k)
      {
        spin(2000 * (k + 1));
        reads[k] = y;
      }
    }
#pragma omp task if (0) depend(inout : y) shared(y)
    y = -1;
    for (int k = 0; k < 8; k++)
      EXPECT(42, reads[k], "reader %d finished before undeferred writer", k);
    EXPECT(-1, y, "undeferred writer ran before continuing");
#pragma omp taskwait
  }
  return failures != 0;
}
