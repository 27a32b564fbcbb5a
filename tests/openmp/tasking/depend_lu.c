// Checks a blocked LU factorisation without pivoting (getrf/trsm/gemm tasks with dependences on tile pointers in a heap-allocated tile array) gives bit-identical results to the sequential blocked algorithm.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_lu.c"

#include "omp_check.h"

#define NT 6
#define TS 10

static void getrf(double *a)
{
  for (int k = 0; k < TS; k++)
    for (int i = k + 1; i < TS; i++) {
      a[i * TS + k] /= a[k * TS + k];
      for (int j = k + 1; j < TS; j++)
        a[i * TS + j] -= a[i * TS + k] * a[k * TS + j];
    }
}
/* row panel: u = inv(L(d)) u */
static void trsm_l(const double *d, double *u)
{
  for (int k = 0; k < TS; k++)
    for (int i = k + 1; i < TS; i++)
      for (int j = 0; j < TS; j++)
        u[i * TS + j] -= d[i * TS + k] * u[k * TS + j];
}
/* column panel: l = l inv(U(d)) */
static void trsm_u(const double *d, double *l)
{
  for (int i = 0; i < TS; i++)
    for (int k = 0; k < TS; k++) {
      l[i * TS + k] /= d[k * TS + k];
      for (int j = k + 1; j < TS; j++)
        l[i * TS + j] -= l[i * TS + k] * d[k * TS + j];
    }
}
static void gemm(const double *l, const double *u, double *c)
{
  for (int i = 0; i < TS; i++)
    for (int j = 0; j < TS; j++) {
      double s = c[i * TS + j];
      for (int k = 0; k < TS; k++)
        s -= l[i * TS + k] * u[k * TS + j];
      c[i * TS + j] = s;
    }
}

static double **alloc_tiles(void)
{
  double **t = malloc(sizeof(double *) * NT * NT);
  unsigned s = 777;
  for (int b = 0; b < NT * NT; b++) {
    t[b] = malloc(sizeof(double) * TS * TS);
    for (int e = 0; e < TS * TS; e++) {
      s = s * 1664525u + 1013904223u;
      t[b][e] = (double)((s >> 9) % 2000) / 1000.0 - 1.0;
    }
  }
  for (int b = 0; b < NT; b++)
    for (int d = 0; d < TS; d++)
      t[b * NT + b][d * TS + d] += 4.0 * NT * TS; /* diagonally dominant: no pivoting needed */
  return t;
}

int main(void)
{
  double **A = alloc_tiles(), **B = alloc_tiles();
#define T(M, i, j) (M[(i) * NT + (j)])
  for (int k = 0; k < NT; k++) {
    getrf(T(B, k, k));
    for (int j = k + 1; j < NT; j++)
      trsm_l(T(B, k, k), T(B, k, j));
    for (int i = k + 1; i < NT; i++)
      trsm_u(T(B, k, k), T(B, i, k));
    for (int i = k + 1; i < NT; i++)
      for (int j = k + 1; j < NT; j++)
        gemm(T(B, i, k), T(B, k, j), T(B, i, j));
  }
#pragma omp parallel shared(A)
#pragma omp single
  for (int k = 0; k < NT; k++) {
    double *d = T(A, k, k);
    /* dependences on the pointed-to tile storage (first element of each tile) */
#pragma omp task depend(inout : d[0]) firstprivate(d)
    getrf(d);
    for (int j = k + 1; j < NT; j++) {
      double *u = T(A, k, j);
#pragma omp task depend(in : d[0]) depend(inout : u[0]) firstprivate(d, u)
      trsm_l(d, u);
    }
    for (int i = k + 1; i < NT; i++) {
      double *l = T(A, i, k);
#pragma omp task depend(in : d[0]) depend(inout : l[0]) firstprivate(d, l)
      trsm_u(d, l);
    }
    for (int i = k + 1; i < NT; i++)
      for (int j = k + 1; j < NT; j++) {
        double *l = T(A, i, k), *u = T(A, k, j), *c = T(A, i, j);
#pragma omp task depend(in : l[0], u[0]) depend(inout : c[0]) firstprivate(l, u, c)
        gemm(l, u, c);
      }
  }
  int mism = 0;
  for (int b = 0; b < NT * NT; b++)
    if (memcmp(A[b], B[b], sizeof(double) * TS * TS) != 0)
      mism++;
  EXPECT(0, mism, "tiles differing from the sequential LU");
  for (int b = 0; b < NT * NT; b++) {
    free(A[b]);
    free(B[b]);
  }
  free(A);
  free(B);
  return failures != 0;
}
