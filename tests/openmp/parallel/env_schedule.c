/* Checks OMP_SCHEDULE=dynamic,3 (see .env): omp_get_schedule() reports dynamic (ignoring any monotonic bit) with chunk 3 in the sequential part and in region threads, and a schedule(runtime) loop covers every iteration once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#define N 999

static int hits[N];

int main(void)
{
  require_env("OMP_SCHEDULE", "dynamic,3");
  omp_sched_t k;
  int c = -1;
  omp_get_schedule(&k, &c);
  check(omp_sched_dynamic, k & ~omp_sched_monotonic, "schedule kind (modifier masked)");
  check(3, c, "schedule chunk");
  int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
  {
    omp_sched_t k2;
    int c2;
    omp_get_schedule(&k2, &c2);
    bad += k2 != k || c2 != c;
  }
  check(0, bad, "threads with a different schedule");
#pragma omp parallel for schedule(runtime) num_threads(4)
  for (int i = 0; i < N; i++)
    hits[i]++;
  for (int i = 0; i < N; i++)
    check(1, hits[i], "schedule(runtime): times iteration %d ran", i);
  return failures != 0;
}
