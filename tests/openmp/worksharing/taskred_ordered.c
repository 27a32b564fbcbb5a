// Checks ordered loops that also have reduction(task, +: x) (GOMP_loop_ordered_start, GOMP_loop_ull_ordered_start) under dynamic and static: ordered regions run in iteration order and the task reduction is complete.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 120
static int seen[N], pos;

static void check(const char *tag, int rep, long long x, long long e) {
  CHECK(e, x, "%s rep %d task reduction", tag, rep);
  CHECK(N, pos, "%s rep %d ordered regions run", tag, rep);
  for (int p = 0; p < N && p < pos; p++)
    CHECK(p, seen[p], "%s rep %d ordered region #%d was iteration", tag, rep, p);
}

int main(void) {
  long long e = 0;
  for (int i = 0; i < N; i++)
    e += 1 + 5L * i;
  volatile unsigned long long vbase = 0xE000000000000000ULL;
  unsigned long long base = vbase;
  for (int rep = 0; rep < 5; rep++) {
    long long x = 0, y = 0;
    pos = 0;
#pragma omp parallel
#pragma omp for ordered schedule(dynamic, 3) reduction(task, + : x)
    for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : x)
      x += 5L * i;
      if (i % 5 == 2)
        for (volatile int spin = 0; spin < 1000; spin++)
          ;
#pragma omp ordered
      seen[pos++] = i;
      x += 1;
    }
    check("int dynamic,3", rep, x, e);

    pos = 0;
#pragma omp parallel
#pragma omp for ordered schedule(static, 2) reduction(task, + : y)
    for (unsigned long long i = base; i < base + N; i++) {
      int k = (int)(i - base);
#pragma omp task in_reduction(+ : y)
      y += 1 + 5L * k;
#pragma omp ordered
      seen[pos++] = k;
    }
    check("unsigned long long static,2", rep, y, e);
  }
  return fails != 0;
}
