// Checks firstprivate capture of variable-length arrays (including a 2-D VLA) and of pointers vs pointees: the VLA contents are copied at creation, pointees are shared.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_firstprivate_vla.c"

#include "omp_check.h"

int main(int argc, char **argv)
{
  (void)argv;
  int n = 300 + argc, m = 7 + argc; /* runtime sizes */
  int bad = 0;
#pragma omp parallel shared(bad) firstprivate(n, m)
#pragma omp single
  {
    int vla[n];
    double grid[m][n];
    int *heap = malloc(sizeof(int) * n);
    for (int r = 0; r < 100; r++) {
      for (int k = 0; k < n; k++) {
        vla[k] = r * k;
        heap[k] = 0;
      }
      for (int i = 0; i < m; i++)
        for (int k = 0; k < n; k++)
          grid[i][k] = r + i * 0.5 + k;
#pragma omp task firstprivate(vla, grid, r, heap) shared(bad)
      {
        int e = 0;
        for (int k = 0; k < n; k++)
          e += vla[k] != r * k;
        for (int i = 0; i < m; i++)
          for (int k = 0; k < n; k++)
            e += grid[i][k] != r + i * 0.5 + k;
        vla[0] = -5; /* private copy */
        if (e) {
#pragma omp atomic
          bad += e;
        }
      }
      vla[1] = -7; /* change after creation: the task must not see it */
#pragma omp taskwait
      EXPECT(0, vla[0], "round %d: original VLA changed by task", r);
    }
    /* firstprivate pointer: the pointer is copied, the pointee is shared */
#pragma omp task firstprivate(heap)
    {
      for (int k = 0; k < n; k++)
        heap[k] = k + 1;
      heap = NULL;
    }
#pragma omp taskwait
    EXPECT(1, heap != NULL, "pointer original intact");
    long s = 0;
    for (int k = 0; k < n; k++)
      s += heap[k];
    EXPECT((long)n * (n + 1) / 2, s, "pointee written through firstprivate pointer");
    free(heap);
  }
  EXPECT(0, bad, "mismatching firstprivate VLA elements");
  return failures != 0;
}
