// Checks tasks created in single (with and without nowait), master and sections: the barrier that follows completes all of them, whichever thread executes them.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_in_single.c"

#include "omp_check.h"

#define N 3000

int main(void)
{
  static int a[N], b[N], c[N], d[2];
  int bad = 0;
#pragma omp parallel shared(a, b, c, d, bad)
  {
#pragma omp single
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      a[i] += i;
    }
    /* implicit barrier at the end of single */
    if (a[N - 1] != N - 1 || a[0] != 0) {
#pragma omp atomic
      bad++;
    }
#pragma omp single nowait
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      b[i] = 2 * i;
    }
#pragma omp master
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      c[i] = 3 * i;
    }
#pragma omp barrier
    if (b[N - 1] != 2 * (N - 1) || c[N - 1] != 3 * (N - 1)) {
#pragma omp atomic
      bad++;
    }
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp task
        d[0] = 1;
      }
#pragma omp section
      {
#pragma omp task
        d[1] = 2;
      }
    }
    if (d[0] != 1 || d[1] != 2) {
#pragma omp atomic
      bad++;
    }
  }
  long sa = 0, sb = 0, sc = 0;
  for (int i = 0; i < N; i++) {
    sa += a[i];
    sb += b[i];
    sc += c[i];
  }
  EXPECT((long)N * (N - 1) / 2, sa, "sum a (single)");
  EXPECT((long)N * (N - 1), sb, "sum b (single nowait)");
  EXPECT(3L * N * (N - 1) / 2, sc, "sum c (master)");
  EXPECT(0, bad, "threads that saw incomplete tasks after a barrier");
  return failures != 0;
}
