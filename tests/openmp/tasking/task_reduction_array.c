// Checks task reductions over array sections and whole arrays (task_reduction(+: h[0:N]), in_reduction on the same section) building a histogram, plus a max reduction on an array element section.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_reduction_array.c"

#include "omp_check.h"

#define NB 16
#define N 4000

int main(void)
{
  long hist[NB];
  int peak[4] = {-1, -1, -1, -1};
  memset(hist, 0, sizeof hist);
  long total = 0;
#pragma omp parallel shared(hist, peak, total)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : hist[0 : NB]) task_reduction(max : peak[0 : 4]) task_reduction(+ : total)
  for (int chunk = 0; chunk < N; chunk += 100) {
#pragma omp task in_reduction(+ : hist[0 : NB]) in_reduction(max : peak[0 : 4]) in_reduction(+ : total) firstprivate(chunk)
    for (int i = chunk; i < chunk + 100; i++) {
      int v = (int)((i * 2654435761u) >> 7) % 1000;
      hist[v % NB] += 1;
      total += v;
      if (v > peak[i % 4])
        peak[i % 4] = v;
    }
  }
  long eh[NB], et = 0;
  int ep[4] = {-1, -1, -1, -1};
  memset(eh, 0, sizeof eh);
  for (int i = 0; i < N; i++) {
    int v = (int)((i * 2654435761u) >> 7) % 1000;
    eh[v % NB]++;
    et += v;
    if (v > ep[i % 4])
      ep[i % 4] = v;
  }
  for (int b = 0; b < NB; b++)
    EXPECT(eh[b], hist[b], "histogram bin %d", b);
  for (int k = 0; k < 4; k++)
    EXPECT(ep[k], peak[k], "max of residue class %d", k);
  EXPECT(et, total, "total");
  return failures != 0;
}
