// Checks taskloop priority(p) is accepted with the default max priority (omp_get_max_task_priority()==0 without OMP_MAX_TASK_PRIORITY) and with runtime values, and all iterations run once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_priority.c"

#include "omp_check.h"

int main(int argc, char **argv)
{
  (void)argv;
  EXPECT(0, omp_get_max_task_priority(), "default omp_get_max_task_priority()");
  static int hit[2000];
  int p = 5 + argc;
#pragma omp parallel shared(hit) firstprivate(p)
#pragma omp single
  {
#pragma omp taskloop priority(0) grainsize(10)
    for (int i = 0; i < 500; i++)
      hit[i]++;
#pragma omp taskloop priority(p) num_tasks(13)
    for (int i = 500; i < 1000; i++)
      hit[i]++;
    for (int q = 0; q < 4; q++) {
#pragma omp taskloop priority(q) grainsize(25) nogroup firstprivate(q)
      for (int i = 1000 + q * 250; i < 1250 + q * 250; i++)
        hit[i]++;
    }
#pragma omp taskwait
  }
  int bad = 0;
  for (int i = 0; i < 2000; i++)
    bad += hit[i] != 1;
  EXPECT(0, bad, "iterations not run exactly once");
  return failures != 0;
}
