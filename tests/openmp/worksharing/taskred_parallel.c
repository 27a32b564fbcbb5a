// Checks reduction(task, op: x) on parallel regions (GOMP_parallel_reductions) with explicit tasks doing in_reduction (from every thread, from a single, nested), for +, *, max and exact double +: results include every implicit and explicit task's contribution.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define K 8

int main(void) {
  for (int rep = 0; rep < 30; rep++) {
    int x = 10, mx = -1, nthr = 0;
    unsigned long long p = 3;
    double d = 0.5;
#pragma omp parallel reduction(task, + : x, d) reduction(task, * : p) reduction(task, max : mx)
    {
      int t = omp_get_thread_num();
#pragma omp single nowait
      nthr = omp_get_num_threads();
      x += 1;        /* the implicit task's own part */
      p *= 2;
      /* Every thread creates tasks. */
      for (int k = 0; k < K; k++) {
#pragma omp task in_reduction(+ : x, d) in_reduction(* : p) in_reduction(max : mx)
        {
          x += 100 * k + t;
          d += 0.25;
          p *= 3;
          mx = mx > 10 * t + k ? mx : 10 * t + k;
        }
      }
      /* One thread creates more, one of which creates children. */
#pragma omp single nowait
      {
        for (int k = 0; k < K; k++) {
#pragma omp task in_reduction(+ : x)
          {
            x += 7;
#pragma omp task in_reduction(+ : x)
            x += 1000;
          }
        }
      }
    }
    long long ex = 10 + nthr + K * 1007L;
    unsigned long long ep = 3;
    for (int t = 0; t < nthr; t++) {
      ex += 100L * K * (K - 1) / 2 + (long long)K * t;
      ep *= 2;
      for (int k = 0; k < K; k++)
        ep *= 3;
    }
    CHECK(ex, x, "rep %d team %d task reduction +", rep, nthr);
    CHECK(1, ep == p, "rep %d team %d task reduction * equal", rep, nthr);
    CHECK(10 * (nthr - 1) + K - 1, mx, "rep %d team %d task reduction max", rep, nthr);
    CHECK(1, d == 0.5 + 0.25 * K * nthr, "rep %d team %d task reduction double + exact", rep, nthr);
  }
  return fails != 0;
}
