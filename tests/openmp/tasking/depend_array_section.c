// Checks dependences on array sections with identical or disjoint storage (a[0:n] with a[0:n], p[k*4:4] blocks, 2-D row sections g[i][0:M]), as the spec requires; sections are matched by their storage.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_array_section.c"

#include "omp_check.h"

#define N 64
#define M 16
#define ROUNDS 30

int main(void)
{
  int a[N];
  int g[4][M];
  int *p = malloc(sizeof(int) * N);
  int n = N;
  for (int i = 0; i < N; i++)
    a[i] = p[i] = 0;
  memset(g, 0, sizeof g);
  int bad = 0;
#pragma omp parallel shared(a, g, p, bad) firstprivate(n)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    long sum = -1;
    /* whole-array section, identical in all tasks */
#pragma omp task depend(out : a[0 : n]) shared(a)
    {
      spin(3000);
      for (int i = 0; i < N; i++)
        a[i] = i + r;
    }
#pragma omp task depend(inout : a[0 : n]) shared(a)
    for (int i = 0; i < N; i++)
      a[i] *= 2;
#pragma omp task depend(in : a[0 : n]) shared(a, sum)
    {
      long s = 0;
      for (int i = 0; i < N; i++)
        s += a[i];
      sum = s;
    }
    /* disjoint blocks of a heap array: producer/consumer per block */
    for (int b = 0; b < N / 4; b++) {
#pragma omp task depend(out : p[b * 4 : 4]) firstprivate(b)
      {
        spin(200 * (b % 4));
        for (int k = 0; k < 4; k++)
          p[b * 4 + k] = b + r;
      }
#pragma omp task depend(in : p[b * 4 : 4]) shared(bad) firstprivate(b)
      {
        for (int k = 0; k < 4; k++)
          if (p[b * 4 + k] != b + r) {
#pragma omp atomic
            bad++;
          }
      }
    }
    /* row sections of a 2-D array */
    for (int i = 0; i < 4; i++) {
#pragma omp task depend(out : g[i][0 : M]) shared(g) firstprivate(i)
      {
        spin(500);
        for (int j = 0; j < M; j++)
          g[i][j] = i * r;
      }
    }
#pragma omp task depend(in : g[0][0 : M], g[1][0 : M], g[2][0 : M], g[3][0 : M]) shared(g, bad)
    {
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < M; j++)
          if (g[i][j] != i * r) {
#pragma omp atomic
            bad++;
          }
    }
#pragma omp taskwait
    EXPECT(2L * (N * (N - 1) / 2 + (long)N * r), sum, "round %d: reader of a[0:n] after out and inout", r);
  }
  EXPECT(0, bad, "section readers that saw stale values");
  free(p);
  return failures != 0;
}
