// Checks a blocked Cholesky factorisation (potrf/trsm/syrk/gemm tasks with in/inout dependences on tiles) gives bit-identical results to the same blocked algorithm run sequentially.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_cholesky.c"

#include "omp_check.h"


#define NT 6 /* tiles per dimension */
#define TS 12 /* tile size */
#define NN (NT * TS)

typedef double tile_t[TS][TS];

/* Newton square root: no libm needed, deterministic */
static double nsqrt(double v)
{
  double x = v > 1 ? v : 1;
  for (int i = 0; i < 60; i++)
    x = 0.5 * (x + v / x);
  return x;
}

static void potrf(tile_t a)
{
  for (int k = 0; k < TS; k++) {
    a[k][k] = nsqrt(a[k][k]);
    for (int i = k + 1; i < TS; i++)
      a[i][k] /= a[k][k];
    for (int j = k + 1; j < TS; j++)
      for (int i = j; i < TS; i++)
        a[i][j] -= a[i][k] * a[j][k];
  }
}
/* b = b * inv(l^T), l lower triangular */
static void trsm(const tile_t l, tile_t b)
{
  for (int i = 0; i < TS; i++)
    for (int j = 0; j < TS; j++) {
      double s = b[i][j];
      for (int k = 0; k < j; k++)
        s -= b[i][k] * l[j][k];
      b[i][j] = s / l[j][j];
    }
}
/* c -= a * a^T (lower part used) */
static void syrk(const tile_t a, tile_t c)
{
  for (int i = 0; i < TS; i++)
    for (int j = 0; j < TS; j++) {
      double s = c[i][j];
      for (int k = 0; k < TS; k++)
        s -= a[i][k] * a[j][k];
      c[i][j] = s;
    }
}
/* c -= a * b^T */
static void gemm(const tile_t a, const tile_t b, tile_t c)
{
  for (int i = 0; i < TS; i++)
    for (int j = 0; j < TS; j++) {
      double s = c[i][j];
      for (int k = 0; k < TS; k++)
        s -= a[i][k] * b[j][k];
      c[i][j] = s;
    }
}

static tile_t A[NT][NT], B[NT][NT];

static void init(tile_t m[NT][NT])
{
  unsigned s = 12345;
  static double full[NN][NN];
  for (int i = 0; i < NN; i++)
    for (int j = 0; j <= i; j++) {
      s = s * 1103515245u + 12345u;
      double v = (double)((s >> 8) % 1000) / 1000.0;
      full[i][j] = full[j][i] = v;
    }
  for (int i = 0; i < NN; i++)
    full[i][i] += NN; /* diagonally dominant: SPD */
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < NN; j++)
      m[i / TS][j / TS][i % TS][j % TS] = full[i][j];
}

int main(void)
{
  init(A);
  init(B);
  /* sequential reference */
  for (int k = 0; k < NT; k++) {
    potrf(B[k][k]);
    for (int i = k + 1; i < NT; i++)
      trsm(B[k][k], B[i][k]);
    for (int i = k + 1; i < NT; i++) {
      for (int j = k + 1; j < i; j++)
        gemm(B[i][k], B[j][k], B[i][j]);
      syrk(B[i][k], B[i][i]);
    }
  }
  /* task version: identical per-tile operation order, enforced only by dependences */
#pragma omp parallel
#pragma omp single
  for (int k = 0; k < NT; k++) {
#pragma omp task depend(inout : A[k][k]) firstprivate(k)
    potrf(A[k][k]);
    for (int i = k + 1; i < NT; i++) {
#pragma omp task depend(in : A[k][k]) depend(inout : A[i][k]) firstprivate(i, k)
      trsm(A[k][k], A[i][k]);
    }
    for (int i = k + 1; i < NT; i++) {
      for (int j = k + 1; j < i; j++) {
#pragma omp task depend(in : A[i][k], A[j][k]) depend(inout : A[i][j]) firstprivate(i, j, k)
        gemm(A[i][k], A[j][k], A[i][j]);
      }
#pragma omp task depend(in : A[i][k]) depend(inout : A[i][i]) firstprivate(i, k)
      syrk(A[i][k], A[i][i]);
    }
  }
  int mism = 0;
  for (int i = 0; i < NT; i++)
    for (int j = 0; j <= i; j++)
      if (memcmp(A[i][j], B[i][j], sizeof(tile_t)) != 0)
        mism++;
  EXPECT(0, mism, "tiles differing from the sequential factorisation");
  /* sanity: factor is finite and the diagonal positive */
  int badd = 0;
  for (int t = 0; t < NT; t++)
    for (int d = 0; d < TS; d++)
      if (!(A[t][t][d][d] > 0 && A[t][t][d][d] < 1e6))
        badd++;
  EXPECT(0, badd, "non-positive diagonal entries of L");
  return failures != 0;
}
