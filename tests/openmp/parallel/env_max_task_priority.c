/* Checks OMP_MAX_TASK_PRIORITY=10 (see .env): omp_get_max_task_priority() is 10 everywhere and tasks with priorities 0..15 (above the maximum too) each run exactly once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#define NT 160

static int ran[NT];

int main(void)
{
  require_env("OMP_MAX_TASK_PRIORITY", "10");
  check(10, omp_get_max_task_priority(), "omp_get_max_task_priority()");
  int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
  {
    bad += omp_get_max_task_priority() != 10;
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task priority(i % 16) firstprivate(i)
      {
#pragma omp atomic
        ran[i]++;
      }
    }
  }
  check(0, bad, "threads with a different omp_get_max_task_priority()");
  for (int i = 0; i < NT; i++)
    check(1, ran[i], "task %d (priority %d) executions", i, i % 16);
  return failures != 0;
}
