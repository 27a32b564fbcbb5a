// Checks taskloop nogroup (no implicit taskgroup: an explicit taskwait completes its tasks, which are children of the encountering task) versus the default implicit taskgroup that also waits for tasks created inside the body.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_nogroup.c"

#include "omp_check.h"

#define N 1000

int main(void)
{
  static int a[N], b[N], c[N];
  int bad_a = 0, bad_b = 0, bad_c = 0;
#pragma omp parallel shared(a, b, c, bad_a, bad_b, bad_c)
#pragma omp single
  {
#pragma omp taskloop nogroup grainsize(16)
    for (int i = 0; i < N; i++) {
      spin(50);
      a[i] = i + 1;
    }
    /* nogroup tasks are children of this task: taskwait covers them */
#pragma omp taskwait
    for (int i = 0; i < N; i++)
      bad_a += a[i] != i + 1;

    /* default: implicit taskgroup covers body-created descendants too */
#pragma omp taskloop grainsize(32)
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      {
        spin(50);
        b[i] = 2 * i;
      }
    }
    for (int i = 0; i < N; i++)
      bad_b += b[i] != 2 * i;

    /* nogroup plus an enclosing explicit taskgroup */
#pragma omp taskgroup
    {
#pragma omp taskloop nogroup num_tasks(10)
      for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
        c[i] = 3 * i;
      }
    }
    for (int i = 0; i < N; i++)
      bad_c += c[i] != 3 * i;
  }
  EXPECT(0, bad_a, "nogroup iterations incomplete after taskwait");
  EXPECT(0, bad_b, "body tasks incomplete after taskloop's implicit taskgroup");
  EXPECT(0, bad_c, "body tasks incomplete after explicit taskgroup around nogroup taskloop");
  return failures != 0;
}
