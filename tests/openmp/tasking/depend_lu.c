// Checks a blocked LU factorisation without pivoting (getrf/trsm/gemm tasks with dependences on tile pointers in a heap-allocated tile array) gives bit-identical results to the sequential blocked algorithm.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_lu.c"

static int failures;

/* Print "FAIL <file>: <what> expected <x> got <y>" (first 10 only) and remember the failure. */
__attribute__((format(printf, 3, 4))) static void fail(long long exp, long long got, const char *fmt, ...)
{
  int n;
#pragma omp atomic capture
  n = failures++;
  if (n >= 10)
    return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", NAME, what, exp, got);
}

#define EXPECT(exp, got, ...)                                                                      \
  do {                                                                                             \
    long long e_ = (long long)(exp), g_ = (long long)(got);                                        \
    if (e_ != g_)                                                                                  \
      fail(e_, g_, __VA_ARGS__);                                                                   \
  } while (0)

/* Busy work to widen race windows; never used to decide pass/fail. */
static inline void spin(int n)
{
  for (volatile int i = 0; i < n; i++) {
  }
}

/* Global event counter: ordering checks compare ticks (end of A < start of B). */
static long seq_counter;
static inline long tick(void) { return __atomic_fetch_add(&seq_counter, 1, __ATOMIC_SEQ_CST); }

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
