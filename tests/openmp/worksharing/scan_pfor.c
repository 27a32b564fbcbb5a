// Checks reduction(inscan, +: x) on combined parallel for, inclusive and exclusive, with constant and run-time trip counts and num_threads(3): every b[i] is the right prefix and x ends as the full sum.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 2000
static long a[N], inc[N], exc[N];

/* An inscan loop in an explicit region with a (run-time) trip count of m. */
static void small(int rep, int m) {
  long z = 5;
#pragma omp parallel
#pragma omp for reduction(inscan, + : z)
  for (int i = 0; i < m; i++) {
    z += a[i];
#pragma omp scan inclusive(z)
    inc[i] = z;
  }
  CHECK(5 + (m ? a[0] : 0), z, "rep %d result with %d iterations", rep, m);
  if (m)
    CHECK(5 + a[0], inc[0], "rep %d prefix with 1 iteration", rep);
}

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = (i * 31) % 97 - 40;
  volatile int vn = N;
  for (int rep = 0; rep < 5; rep++) {
    int n = rep % 2 ? vn : vn - 1 - rep;
    long x = rep, y = 0;
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < N; i++) {
      x += a[i];
#pragma omp scan inclusive(x)
      inc[i] = x;
    }
#pragma omp parallel for reduction(inscan, + : y) num_threads(3)
    for (int i = 0; i < n; i++) {
      exc[i] = y;
#pragma omp scan exclusive(y)
      y += a[i];
    }
    long ex = rep, ey = 0;
    for (int i = 0; i < N; i++) {
      ex += a[i];
      CHECK(ex, inc[i], "rep %d inclusive prefix [%d]", rep, i);
      if (i < n) {
        CHECK(ey, exc[i], "rep %d exclusive prefix [%d]", rep, i);
        ey += a[i];
      }
    }
    CHECK(ex, x, "rep %d inclusive result", rep);
    CHECK(ey, y, "rep %d exclusive result", rep);

    /* Inside an explicit region, run-time trip counts of 0 and 1. */
    small(rep, 0);
    small(rep, 1);
  }
  return fails != 0;
}
