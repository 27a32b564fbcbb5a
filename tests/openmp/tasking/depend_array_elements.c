// Checks dependences on individual array elements (1-D and 2-D): same element orders tasks, different elements do not interfere, one task depending on several elements waits for each writer.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_array_elements.c"

#include "omp_check.h"

#define N 32
#define ROUNDS 20

int main(void)
{
  int a[N];
  int g[8][8];
  int bad = 0;
  memset(a, 0, sizeof a);
  memset(g, 0, sizeof g);
#pragma omp parallel shared(a, g, bad)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    /* per element: out, then inout, then in */
    for (int i = 0; i < N; i++) {
#pragma omp task depend(out : a[i]) shared(a) firstprivate(i)
      {
        spin(200 * (i % 5));
        a[i] = i;
      }
    }
    for (int i = 0; i < N; i++) {
#pragma omp task depend(inout : a[i]) shared(a) firstprivate(i)
      a[i] = a[i] * 2 + 1;
    }
    /* one task with four element dependences */
    for (int i = 0; i + 3 < N; i += 4) {
#pragma omp task depend(in : a[i], a[i + 1], a[i + 2], a[i + 3]) shared(a, bad) firstprivate(i)
      {
        for (int k = i; k < i + 4; k++)
          if (a[k] != 2 * k + 1) {
#pragma omp atomic
            bad++;
          }
      }
    }
    /* 2-D elements: row-major wavefront g[i][j] = g[i-1][j] + g[i][j-1] */
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++) {
        if (i == 0 || j == 0) {
#pragma omp task depend(out : g[i][j]) shared(g) firstprivate(i, j)
          g[i][j] = 1;
        } else {
#pragma omp task depend(in : g[i - 1][j], g[i][j - 1]) depend(out : g[i][j]) shared(g) firstprivate(i, j)
          {
            spin(300);
            g[i][j] = g[i - 1][j] + g[i][j - 1];
          }
        }
      }
#pragma omp taskwait
    EXPECT(3432, g[7][7], "round %d: 2-D wavefront corner (binomial 14 choose 7)", r);
    for (int i = 0; i < N; i++)
      if (a[i] != 2 * i + 1) {
        EXPECT(2 * i + 1, a[i], "round %d: a[%d]", r, i);
        break;
      }
  }
  EXPECT(0, bad, "element readers that saw stale values");
  return failures != 0;
}
