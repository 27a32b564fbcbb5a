/* Checks single: in each of 500 constructs exactly one thread (a valid id) executes the block, and its write is visible to all threads after the implied barrier; teams of 1, 3, 4 and 8. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define ITERS 500
#define MAXT 8

static int execs[ITERS], who[ITERS];

static void run(int k)
{
  int val = -1, stale = 0, team = 0;
  for (int i = 0; i < ITERS; i++)
    execs[i] = 0, who[i] = -1;
#pragma omp parallel num_threads(k) shared(val, stale, team)
  {
#pragma omp atomic
    team++;
    for (int i = 0; i < ITERS; i++) {
#pragma omp single
      {
#pragma omp atomic
        execs[i]++;
        who[i] = omp_get_thread_num();
        val = i;
      }
      /* implied barrier: everybody sees val == i */
      if (val != i) {
#pragma omp atomic
        stale++;
      }
#pragma omp barrier
    }
  }
  check(k, team, "team of %d: size", k);
  check(0, stale, "team of %d: reads of the single's write that were stale", k);
  for (int i = 0; i < ITERS; i++) {
    check(1, execs[i], "team of %d: executions of single #%d", k, i);
    check(1, who[i] >= 0 && who[i] < k, "team of %d: single #%d ran on valid thread (id %d)", k, i, who[i]);
  }
}

int main(void)
{
  omp_set_dynamic(0);
  run(1);
  run(3);
  run(4);
  run(8);
  return failures != 0;
}
