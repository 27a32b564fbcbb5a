// Checks reduction(task, +: x) on combined parallel for (constant and run-time bounds, dynamic and static), iterations adding directly and through in_reduction tasks: results equal the sequential total.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 300

int main(void) {
  volatile int vn = N;
  int n = vn;
  long long e = 0;
  for (int i = 0; i < N; i++)
    e += 1 + 2L * i;
  for (int rep = 0; rep < 10; rep++) {
    long long x = 0, y = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(task, + : x)
    for (int i = 0; i < N; i++) {
      x += 1;
#pragma omp task in_reduction(+ : x)
      x += 2L * i;
    }
    CHECK(e, x, "rep %d parallel for dynamic, constant bounds", rep);
#pragma omp parallel for schedule(static) reduction(task, + : y)
    for (int i = 0; i < n; i++) {
#pragma omp task in_reduction(+ : y)
      y += 1 + 2L * i;
    }
    CHECK(e, y, "rep %d parallel for static, run-time bounds", rep);
  }
  return fails != 0;
}
