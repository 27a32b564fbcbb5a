// Checks zero-trip loops under every schedule (and ordered, nowait, unsigned, downward, combined parallel for): the body never runs, and later loops in the same region still run every iteration once.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 64
static int ran, after[N];

static void empty_loops(int lo, int hi) {
  /* Both above 0 (all bounds here are > -100), so lo >= hi keeps these empty. */
  unsigned long long ulo = (unsigned long long)(lo + 100), uhi = (unsigned long long)(hi + 100);
  for (int k = 0; k < N; k++)
    after[k] = 0;
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(static, 2)
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(dynamic)
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(dynamic, 5) nowait
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(guided)
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(guided, 3) nowait
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(runtime)
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(auto)
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(monotonic:dynamic)
    for (int i = lo; i < hi; i++)
#pragma omp atomic
      ran++;
#pragma omp for ordered schedule(dynamic)
    for (int i = lo; i < hi; i++) {
#pragma omp ordered
#pragma omp atomic
      ran++;
    }
#pragma omp for schedule(dynamic)
    for (int i = hi; i > lo; i -= 2) /* downward: empty when hi <= lo */
#pragma omp atomic
      ran++;
#pragma omp for schedule(dynamic, 2)
    for (unsigned long long i = ulo; i < uhi; i++)
#pragma omp atomic
      ran++;
#pragma omp for schedule(guided)
    for (unsigned long long i = uhi; i > ulo; i--)
#pragma omp atomic
      ran++;
    /* A real loop after all the empty ones. */
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < N; i++)
#pragma omp atomic
      after[i]++;
  }
#pragma omp parallel for schedule(dynamic)
  for (int i = lo; i < hi; i++)
#pragma omp atomic
    ran++;
#pragma omp parallel for schedule(static)
  for (int i = lo; i < hi; i++)
#pragma omp atomic
    ran++;
  CHECK(0, ran, "iterations run by empty loops lo=%d hi=%d", lo, hi);
  for (int k = 0; k < N; k++)
    CHECK(1, after[k], "count[%d] of the loop after the empty ones", k);
}

int main(void) {
  static const int schedule_kinds[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided, omp_sched_auto};
  volatile int zero = 0, seven = 7, minus = -3;
  for (int rep = 0; rep < 8; rep++) {
    omp_set_schedule((omp_sched_t)schedule_kinds[rep % 4], rep % 3);
    empty_loops(zero, zero);    /* lo == hi */
    empty_loops(seven, zero);   /* lo > hi */
    empty_loops(seven, minus);  /* lo > hi, negative bound */
  }
  return fails != 0;
}
