/* Checks omp_get_max_task_priority(): equals OMP_MAX_TASK_PRIORITY when set and 0 otherwise, is the same in every thread, and tasks with priority clauses (in and beyond range) all run exactly once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define NT 64

static int ran[NT];

int main(void)
{
  const char *env = getenv("OMP_MAX_TASK_PRIORITY");
  int mp = omp_get_max_task_priority();
  check(env ? atoi(env) : 0, mp, "omp_get_max_task_priority() (OMP_MAX_TASK_PRIORITY %s)", env ? env : "unset");
  int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
  {
    bad += omp_get_max_task_priority() != mp;
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task priority(i % 20) firstprivate(i)
      {
#pragma omp atomic
        ran[i]++;
      }
    }
  }
  check(0, bad, "threads with a different omp_get_max_task_priority()");
  for (int i = 0; i < NT; i++)
    check(1, ran[i], "task %d (priority %d) executions", i, i % 20);
  return failures != 0;
}
