/* Checks #pragma omp atomic on long double, which GCC lowers to GOMP_atomic_start/GOMP_atomic_end: update, capture (unique tickets), read and write under contention. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define N 1000
#define TOT (T * N)

static unsigned char seen[TOT];

int main(void)
{
  omp_set_dynamic(0);
  long double sum = 0.0L, ticket = 0.0L, prod = 1.0L, w = 0.0L;
  int bad = 0, torn = 0, team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      sum += 0.25L;
      long double v;
#pragma omp atomic capture
      v = ticket++;
      long k = (long)v;
      if (v != (long double)k || k < 0 || k >= TOT) {
#pragma omp atomic
        bad++;
      } else {
#pragma omp atomic
        seen[k]++;
      }
      if (i < 8) {
#pragma omp atomic update
        prod = prod * 2.0L;
      }
      /* write a value whose integer and fractional parts agree; readers check them */
#pragma omp atomic write
      w = (long double)(t * N + i) + 0.5L;
      long double r;
#pragma omp atomic read
      r = w;
      long double ip = (long double)(long)r;
      if (r - ip != 0.5L || r < 0.0L || r >= (long double)TOT) {
#pragma omp atomic
        torn++;
      }
    }
  }
  check(T, team, "team size");
  check(TOT, (long long)(sum * 4.0L), "long double += 0.25 (x4)");
  check(TOT, (long long)ticket, "final long double ticket");
  check(1LL << (8 * T), (long long)prod, "long double prod *= 2 (x%d)", 8 * T);
  check(0, bad, "captured tickets that were not integers in range");
  check(0, torn, "atomic reads of long double that were not a written value");
  for (int k = 0; k < TOT; k++)
    check(1, seen[k], "ticket %d captured", k);
  return failures != 0;
}
