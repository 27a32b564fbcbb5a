// Checks reduction(task, +: x) on unsigned long long loops above LLONG_MAX (GOMP_loop_ull_start with reductions) under dynamic, guided and static: iterations and their in_reduction tasks add up to the sequential total.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

typedef unsigned long long ull;

int main(void) {
  volatile ull vlo = 0xF000000000000000ULL;
  ull lo = vlo, hi = lo + 3 * 250ULL;
  ull e = 0;
  for (ull i = lo; i < hi; i += 3)
    e += (i - lo) + 1;
  for (int rep = 0; rep < 10; rep++) {
    ull x = 0, y = 0, z = 0;
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 2) reduction(task, + : x)
      for (ull i = lo; i < hi; i += 3) {
        x += 1;
#pragma omp task in_reduction(+ : x)
        x += i - lo;
      }
#pragma omp for schedule(guided) reduction(task, + : y)
      for (ull i = lo; i < hi; i += 3) {
#pragma omp task in_reduction(+ : y)
        y += (i - lo) + 1;
      }
#pragma omp for schedule(static) reduction(task, + : z)
      for (ull i = hi - 3; i >= lo; i -= 3) { /* lo > 3: no wrap-around */
#pragma omp task in_reduction(+ : z)
        z += (i - lo) + 1;
      }
    }
    CHECK(1, e == x, "rep %d dynamic ull task reduction equal", rep);
    CHECK(1, e == y, "rep %d guided ull task reduction equal", rep);
    CHECK(1, e == z, "rep %d static ull downward task reduction equal", rep);
  }
  return fails != 0;
}
