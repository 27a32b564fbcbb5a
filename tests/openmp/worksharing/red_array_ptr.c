// Checks array-section reductions through pointers (p[0:n] on heap memory, p[lo:len] with run-time bounds, double) on for and parallel for: every element equals the sequential result.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#include <stdlib.h>

int main(void) {
  for (int rep = 0; rep < 10; rep++) {
    int n = 37 + rep, iters = 3000;
    int *p = malloc(sizeof *p * (size_t)n), *ep = calloc((size_t)n, sizeof *ep);
    double *q = malloc(sizeof *q * (size_t)n), *eq = calloc((size_t)n, sizeof *eq);
    if (!p || !q || !ep || !eq) {
      CHECK(1, 0, "memory allocation succeeded");
      return 1;
    }
    for (int k = 0; k < n; k++)
      p[k] = 100 * k, q[k] = 0.5;
    int lo = rep % 5, len = n - lo - 3;
    for (int i = 0; i < iters; i++) {
      ep[(i * 7) % n]++;
      eq[lo + i % len] += 0.25 * (i % 3);
    }
#pragma omp parallel
#pragma omp for schedule(dynamic, 16) reduction(+ : p[0:n])
    for (int i = 0; i < iters; i++)
      p[(i * 7) % n]++;
#pragma omp parallel for schedule(guided) reduction(+ : q[lo:len])
    for (int i = 0; i < iters; i++)
      q[lo + i % len] += 0.25 * (i % 3);
    for (int k = 0; k < n; k++) {
      CHECK(100 * k + ep[k], p[k], "rep %d p[0:n] element %d", rep, k);
      /* Multiples of 1/4, far below 2^53: exact. */
      CHECK(1, q[k] == 0.5 + eq[k], "rep %d q[lo:len] element %d exact", rep, k);
    }
    free(p), free(q), free(ep), free(eq);
  }
  return fails != 0;
}
