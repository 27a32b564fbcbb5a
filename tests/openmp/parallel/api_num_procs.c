/* Checks omp_get_num_procs(): positive, equal to the number of CPUs in the process affinity mask, and the same in every thread of a team. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  int np = omp_get_num_procs();
  check(1, np > 0, "omp_get_num_procs() > 0 (got %d)", np);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    check(CPU_COUNT(&set), np, "omp_get_num_procs() vs CPUs in the affinity mask");
  int bad = 0;
#pragma omp parallel num_threads(4) reduction(+ : bad)
  bad += omp_get_num_procs() != np;
  check(0, bad, "threads with a different omp_get_num_procs()");
  return failures != 0;
}
