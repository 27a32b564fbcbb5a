// Checks taskloops inside an explicit taskgroup (with and without nogroup, mixed with sibling tasks and tasks spawned from the loop body): the taskgroup end waits for everything.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_in_taskgroup.c"

#include "omp_check.h"

#define N 800

int main(void)
{
  static int a[N], b[N], c[N];
  int extra = 0, bad = 0;
#pragma omp parallel shared(a, b, c, extra, bad)
#pragma omp single
  for (int r = 0; r < 5; r++) {
#pragma omp taskgroup
    {
#pragma omp task shared(extra)
      {
        spin(5000);
#pragma omp atomic
        extra++;
      }
#pragma omp taskloop nogroup grainsize(20)
      for (int i = 0; i < N; i++) {
        a[i]++;
#pragma omp task firstprivate(i)
        b[i]++;
      }
#pragma omp taskloop num_tasks(7)
      for (int i = 0; i < N; i++)
        c[i]++;
      /* the second taskloop's own taskgroup completed its tasks */
      for (int i = 0; i < N; i++)
        if (c[i] != r + 1) {
          bad++;
          break;
        }
    }
    for (int i = 0; i < N; i++)
      if (a[i] != r + 1 || b[i] != r + 1) {
        bad++;
        break;
      }
    EXPECT(r + 1, extra, "round %d: sibling task done at taskgroup end", r);
  }
  EXPECT(0, bad, "rounds with incomplete taskloop work");
  return failures != 0;
}
