// Checks taskloop in_reduction inside a taskgroup task_reduction (mixed with plain in_reduction tasks), a taskloop reduction whose body tasks use in_reduction, and nogroup taskloop in_reduction.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_in_reduction.c"

#include "omp_check.h"

int main(void)
{
  long x = 0, y = 0, z = 0;
#pragma omp parallel shared(x, y, z)
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+ : x)
    {
#pragma omp task in_reduction(+ : x)
      x += 1000000;
#pragma omp taskloop in_reduction(+ : x) grainsize(10)
      for (int i = 0; i < 1000; i++)
        x += i;
#pragma omp taskloop in_reduction(+ : x) num_tasks(3) nogroup
      for (int i = 0; i < 10; i++)
        x += 1;
    }
    /* taskloop reduction; tasks created in its body participate through in_reduction */
#pragma omp taskloop reduction(+ : y) num_tasks(4)
    for (int i = 0; i < 40; i++) {
      y += 1;
#pragma omp task in_reduction(+ : y) firstprivate(i)
      y += i;
    }
    /* taskloop in_reduction from inside a participating task's own taskgroup */
#pragma omp taskgroup task_reduction(+ : z)
    {
#pragma omp task in_reduction(+ : z)
      {
        z += 5;
#pragma omp taskloop in_reduction(+ : z) grainsize(1)
        for (int i = 0; i < 8; i++)
          z += 100;
      }
    }
  }
  EXPECT(1000000 + 499500 + 10, x, "taskloop in_reduction inside taskgroup");
  EXPECT(40 + 780, y, "taskloop reduction with in_reduction child tasks");
  EXPECT(805, z, "taskloop in_reduction inside a participating task");
  return failures != 0;
}
