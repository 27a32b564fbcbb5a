// Checks doacross loops that also have reduction(task, +: x) (GOMP_loop_doacross_start, GOMP_loop_ull_doacross_start): sinks wait for their sources and the task reduction is complete.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

/* Small on purpose: libgomp's doacross waits spin, which costs a time slice
   per blocked wait when threads outnumber cores. */
#define N 16
static int done[N], late;

static void need(int p) {
  if (p < 0)
    return;
  int d;
#pragma omp atomic read
  d = done[p];
  if (!d) {
#pragma omp atomic
    late++;
  }
}

static void finish(int k) {
#pragma omp atomic write
  done[k] = 1;
}

int main(void) {
  long long e = 0;
  for (int i = 0; i < N; i++)
    e += 1 + 7L * i;
  volatile unsigned long long vbase = 0xD000000000000000ULL;
  unsigned long long base = vbase;
  long long x = 0, y = 0;
  for (int k = 0; k < N; k++)
    done[k] = 0;
  late = 0;
#pragma omp parallel
#pragma omp for ordered(1) schedule(dynamic) reduction(task, + : x)
  for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : x)
    x += 7L * i;
#pragma omp ordered depend(sink : i - 1)
    need(i - 1);
    x += 1;
    finish(i);
#pragma omp ordered depend(source)
  }
  CHECK(e, x, "int doacross task reduction");
  CHECK(0, late, "int doacross: iterations past a sink before its source");

  for (int k = 0; k < N; k++)
    done[k] = 0;
  late = 0;
#pragma omp parallel
#pragma omp for ordered(1) schedule(static, 1) reduction(task, + : y)
  for (unsigned long long i = base; i < base + N; i++) {
    int k = (int)(i - base);
#pragma omp task in_reduction(+ : y)
    y += 1 + 7L * k;
#pragma omp ordered depend(sink : i - 1)
    need(k - 1);
    finish(k);
#pragma omp ordered depend(source)
  }
  CHECK(e, y, "unsigned long long doacross task reduction");
  CHECK(0, late, "unsigned long long doacross: iterations past a sink before its source");
  return fails != 0;
}
