/* Checks OMP_SCHEDULE=monotonic:guided,5 (see .env): omp_get_schedule() reports guided with the monotonic modifier and chunk 5, and a schedule(runtime) loop covers every iteration once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#define N 1000

static int hits[N];

int main(void)
{
  require_env("OMP_SCHEDULE", "monotonic:guided,5");
  omp_sched_t k;
  int c = -1;
  omp_get_schedule(&k, &c);
  check(omp_sched_guided | omp_sched_monotonic, k, "schedule kind with modifier");
  check(5, c, "schedule chunk");
#pragma omp parallel for schedule(runtime) num_threads(3)
  for (int i = 0; i < N; i++)
    hits[i]++;
  for (int i = 0; i < N; i++)
    check(1, hits[i], "schedule(runtime): times iteration %d ran", i);
  return failures != 0;
}
