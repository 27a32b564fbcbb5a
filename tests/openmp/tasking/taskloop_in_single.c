// Checks taskloops encountered in single, in every thread of a parallel region (each its own taskloop), and inside a parallel for iteration, producing correct results.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_in_single.c"

#include "omp_check.h"

#define N 600

int main(void)
{
  static int s1[N], s2[4][N], s3[64][20];
  int nthreads = 0;
#pragma omp parallel shared(s1, s2, s3, nthreads)
  {
#pragma omp single
    {
      nthreads = omp_get_num_threads();
#pragma omp taskloop grainsize(11)
      for (int i = 0; i < N; i++)
        s1[i] += i;
    }
    /* every thread runs its own taskloop */
    int me = omp_get_thread_num();
    if (me < 4) {
#pragma omp taskloop num_tasks(5)
      for (int i = 0; i < N; i++)
        s2[me][i] = me + i;
    }
#pragma omp for schedule(dynamic)
    for (int k = 0; k < 64; k++) {
#pragma omp taskloop grainsize(3)
      for (int j = 0; j < 20; j++)
        s3[k][j] = k * j;
    }
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += s1[i] != i;
  EXPECT(0, bad, "taskloop in single");
  bad = 0;
  for (int t = 0; t < 4 && t < nthreads; t++)
    for (int i = 0; i < N; i++)
      bad += s2[t][i] != t + i;
  EXPECT(0, bad, "per-thread taskloops");
  bad = 0;
  for (int k = 0; k < 64; k++)
    for (int j = 0; j < 20; j++)
      bad += s3[k][j] != k * j;
  EXPECT(0, bad, "taskloop inside parallel for");
  return failures != 0;
}
