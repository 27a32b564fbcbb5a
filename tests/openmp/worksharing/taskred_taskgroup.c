// Checks taskgroup task_reduction (GOMP_taskgroup_reduction_register) inside a worksharing region, with in_reduction tasks created in a for loop and nested: the result after the taskgroup includes every task's contribution.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 100

int main(void) {
  for (int rep = 0; rep < 20; rep++) {
    long x = rep, y = 0;
    int m = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : x) task_reduction(max : m)
      {
        for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : x) in_reduction(max : m)
          {
            x += i;
            m = m > (i * 13) % 101 ? m : (i * 13) % 101;
            if (i % 10 == 0) {
#pragma omp task in_reduction(+ : x)
              x += 1000;
            }
          }
        }
      }
      /* The taskgroup end makes the result available here. */
      y = x;
    }
    long e = rep + (long)N * (N - 1) / 2 + 1000L * (N / 10);
    CHECK(e, x, "rep %d taskgroup task reduction +", rep);
    CHECK(e, y, "rep %d value read right after the taskgroup", rep);
    CHECK(100, m, "rep %d taskgroup task reduction max", rep);
  }
  return fails != 0;
}
