// Checks repeated 2-D stencil sweeps where every cell update is a task with in/inout dependences on its neighbours' blocks (created inside nested loops), bit-identical to the sequential sweep order.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "combo_wavefront.c"

#include "omp_check.h"

#define NB 8
#define BS 8
#define SWEEPS 4
#define G (NB * BS)

static double A[G + 2][G + 2], B[G + 2][G + 2];
static int ver[NB + 2][NB + 2]; /* updates done per block (halo entries stay 0) */
static int bad_versions;

/* Gauss-Seidel style in-place update of one block */
static void update(double m[G + 2][G + 2], int bi, int bj)
{
  for (int i = bi * BS + 1; i <= (bi + 1) * BS; i++)
    for (int j = bj * BS + 1; j <= (bj + 1) * BS; j++)
      m[i][j] = 0.25 * (m[i - 1][j] + m[i + 1][j] + m[i][j - 1] + m[i][j + 1]) + 0.01 * m[i][j];
}

int main(void)
{
  for (int i = 0; i < G + 2; i++)
    for (int j = 0; j < G + 2; j++)
      A[i][j] = B[i][j] = (double)((i * 31 + j * 17) % 23) - 11.0;
  for (int s = 0; s < SWEEPS; s++)
    for (int bi = 0; bi < NB; bi++)
      for (int bj = 0; bj < NB; bj++)
        update(B, bi, bj);
  /* block (bi,bj) reads its four neighbour blocks: writes to it must follow the sequential order */
  char tok[NB + 2][NB + 2]; /* dependence addresses, one per block (with a halo of unused ones) */
  (void)tok;
#pragma omp parallel shared(tok)
#pragma omp single
  for (int s = 0; s < SWEEPS; s++)
    for (int bi = 0; bi < NB; bi++)
      for (int bj = 0; bj < NB; bj++) {
#pragma omp task depend(inout : tok[bi + 1][bj + 1]) \
    depend(in : tok[bi][bj + 1], tok[bi + 2][bj + 1], tok[bi + 1][bj], tok[bi + 1][bj + 2]) firstprivate(s, bi, bj)
        {
          spin(4000 * ((bi * 7 + bj * 3) % 5)); /* uneven task lengths */
          /* sequential order: up/left neighbours already did sweep s, down/right did not yet */
          int e = ver[bi + 1][bj + 1] != s;
          if (bi > 0)
            e |= ver[bi][bj + 1] != s + 1;
          if (bj > 0)
            e |= ver[bi + 1][bj] != s + 1;
          if (bi < NB - 1)
            e |= ver[bi + 2][bj + 1] != s;
          if (bj < NB - 1)
            e |= ver[bi + 1][bj + 2] != s;
          if (e)
            __atomic_fetch_add(&bad_versions, 1, __ATOMIC_RELAXED);
          update(A, bi, bj);
          ver[bi + 1][bj + 1]++;
        }
      }
  int diff = 0;
  for (int i = 0; i < G + 2; i++)
    diff += memcmp(A[i], B[i], sizeof A[i]) != 0;
  EXPECT(0, diff, "rows differing from the sequential sweeps");
  EXPECT(0, bad_versions, "block updates that saw neighbours in the wrong sweep");
  return failures != 0;
}
