// Checks taskgroup task_reduction(+:x) with task in_reduction(+:x): participating tasks (nested too), non-participating tasks reading nothing, and the value after the taskgroup; int, long and double.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_reduction_basic.c"

#include "omp_check.h"

#define N 500

int main(void)
{
  int x = 0;
  long y = 100;
  double z = 0.5;
#pragma omp parallel shared(x, y, z)
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+ : x, y, z)
    {
      for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : x, y) firstprivate(i)
        {
          x += i;
          y += 2 * i;
        }
        if (i % 10 == 0) {
          /* a task that does not participate */
#pragma omp task firstprivate(i)
          spin(100);
          /* participating child of a participating task */
#pragma omp task in_reduction(+ : z) firstprivate(i)
          {
            z += 1.0;
#pragma omp task in_reduction(+ : z, x)
            {
              z += 0.25;
              x += 1;
            }
          }
        }
      }
    }
  }
  EXPECT((long)N * (N - 1) / 2 + N / 10, x, "int reduction");
  EXPECT(100L + (long)N * (N - 1), y, "long reduction (initial value kept)");
  EXPECT(1, z == 0.5 + (N / 10) * 1.25, "double reduction equals %g", 0.5 + (N / 10) * 1.25);
  return failures != 0;
}
