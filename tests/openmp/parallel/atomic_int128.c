/* Checks #pragma omp atomic on unsigned __int128 (16 bytes, lowered by GCC to GOMP_atomic_start/end): update with carries across the 64-bit halves, capture tickets, 16-byte compare (max) and read/write without tearing. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define N 1000
#define TOT (T * N)

typedef unsigned __int128 u128;
static unsigned char seen[TOT];

static u128 pat(unsigned long long k) { return ((u128)k << 64) | k; }

int main(void)
{
  omp_set_dynamic(0);
  const u128 step = ((u128)1 << 64) + 0xffffffffffffffffULL; /* forces a carry into the high half */
  u128 acc = 0, ticket = 0, mx = 0, w = 0;
  int bad = 0, torn = 0, team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      acc += step;
      u128 v;
#pragma omp atomic capture
      v = ticket++;
      if (v >= TOT) {
#pragma omp atomic
        bad++;
      } else {
#pragma omp atomic
        seen[(int)v]++;
      }
      u128 cand = pat((unsigned long long)(t * N + i));
#pragma omp atomic compare
      mx = mx < cand ? cand : mx;
#pragma omp atomic write
      w = cand;
      u128 r;
#pragma omp atomic read
      r = w;
      if ((unsigned long long)(r >> 64) != (unsigned long long)r || (unsigned long long)r >= TOT) {
#pragma omp atomic
        torn++;
      }
    }
  }
  check(T, team, "team size");
  u128 expect = step * (u128)TOT;
  check((long long)(unsigned long long)(expect >> 64), (long long)(unsigned long long)(acc >> 64), "acc high half");
  check((long long)(unsigned long long)expect, (long long)(unsigned long long)acc, "acc low half");
  check(TOT, (long long)ticket, "final ticket");
  check(0, bad, "out-of-range captured tickets");
  for (int k = 0; k < TOT; k++)
    check(1, seen[k], "ticket %d captured", k);
  check(1, mx == pat(TOT - 1), "compare-max result is the largest pattern (low half %llu)", (unsigned long long)mx);
  check(0, torn, "torn 16-byte atomic reads");
  return failures != 0;
}
