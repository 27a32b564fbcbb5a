// Checks priority(): omp_get_max_task_priority() reflects OMP_MAX_TASK_PRIORITY=10 (.env) and tasks with priorities 0..10 (with and without dependences) all run exactly once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_priority.c"

#include "omp_check.h"

#define N 1100

int main(void)
{
  EXPECT(10, omp_get_max_task_priority(), "omp_get_max_task_priority()");
  static int ran[N];
  int chain = 0;
#pragma omp parallel shared(ran, chain)
  {
    EXPECT(10, omp_get_max_task_priority(), "omp_get_max_task_priority() in parallel");
#pragma omp single
    {
      for (int i = 0; i < N; i++) {
#pragma omp task priority(i % 11) firstprivate(i) shared(ran)
        {
          spin(100);
          __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
        }
      }
      /* priorities never break dependence order */
      for (int i = 0; i < 200; i++) {
#pragma omp task priority(10 - i % 11) depend(inout : chain) firstprivate(i) shared(chain)
        {
          EXPECT(i, chain, "chain value seen by priority task %d", i);
          chain = i + 1;
        }
      }
    }
  }
  for (int i = 0; i < N; i++)
    if (ran[i] != 1) {
      EXPECT(1, ran[i], "task %d ran count", i);
      break;
    }
  EXPECT(200, chain, "chain length");
  return failures != 0;
}
