// Checks the OpenMP 5.0 loop construct (loop bind(parallel), parallel loop, loop with reduction and collapse) and for simd / parallel for simd, which GCC 12 lowers to static worksharing: every iteration once, reductions equal the sequential result.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 1000
static int hits[N], grid[40][25];

int main(void) {
  long e = 0;
  for (int i = 0; i < N; i++)
    e += (i * 7) % 13;
  for (int rep = 0; rep < 20; rep++) {
    for (int i = 0; i < N; i++)
      hits[i] = 0;
    for (int i = 0; i < 40; i++)
      for (int j = 0; j < 25; j++)
        grid[i][j] = 0;
    long s1 = 0, s2 = 0, s3 = 0;
#pragma omp parallel
    {
#pragma omp loop bind(parallel)
      for (int i = 0; i < N; i++) /* no OpenMP atomic allowed in a loop region */
        __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp loop bind(parallel) reduction(+ : s1)
      for (int i = 0; i < N; i++)
        s1 += (i * 7) % 13;
#pragma omp loop bind(parallel) collapse(2)
      for (int i = 0; i < 40; i++)
        for (int j = 0; j < 25; j++)
          __atomic_fetch_add(&grid[i][j], 1, __ATOMIC_RELAXED);
#pragma omp for simd schedule(static, 8) reduction(+ : s2)
      for (int i = 0; i < N; i++)
        s2 += (i * 7) % 13;
    }
#pragma omp parallel loop reduction(+ : s3)
    for (int i = 0; i < N; i++) {
      __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
      s3 += (i * 7) % 13;
    }
    long s4 = 0;
#pragma omp parallel for simd reduction(+ : s4)
    for (int i = 0; i < N; i++)
      s4 += (i * 7) % 13;
    for (int i = 0; i < N; i++)
      CHECK(2, hits[i], "rep %d count[%d] over loop and parallel loop", rep, i);
    for (int i = 0; i < 40; i++)
      for (int j = 0; j < 25; j++)
        CHECK(1, grid[i][j], "rep %d collapse(2) loop count[%d][%d]", rep, i, j);
    CHECK(e, s1, "rep %d loop reduction", rep);
    CHECK(e, s2, "rep %d for simd reduction", rep);
    CHECK(e, s3, "rep %d parallel loop reduction", rep);
    CHECK(e, s4, "rep %d parallel for simd reduction", rep);
  }
  return fails != 0;
}
