/* Checks teams larger than the machine's cores (num_threads 8 and 12 on 2 cores): exact team size, and barrier, single, critical and master all behave over 100 iterations. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define ITERS 100
#define MAXT 12

static int run(int k)
{
  int slot[MAXT];
  int single_cnt[ITERS] = {0};
  int crit = 0, master_cnt = 0, errors = 0, team = 0;
#pragma omp parallel num_threads(k) shared(slot, single_cnt, crit, master_cnt, errors, team)
  {
    int t = omp_get_thread_num();
    int n = omp_get_num_threads();
#pragma omp atomic
    team++;
    for (int it = 0; it < ITERS; it++) {
      slot[t] = it * 100 + t;
#pragma omp barrier
      for (int j = 0; j < n; j++)
        if (slot[j] != it * 100 + j) {
#pragma omp atomic
          errors++;
        }
#pragma omp single
      single_cnt[it]++;
#pragma omp critical
      crit++;
#pragma omp master
      master_cnt++;
#pragma omp barrier
    }
  }
  check(k, team, "num_threads(%d): team size", k);
  check(0, errors, "num_threads(%d): stale slots seen after barrier", k);
  for (int it = 0; it < ITERS; it++)
    check(1, single_cnt[it], "num_threads(%d): executions of single in iteration %d", k, it);
  check((long long)k * ITERS, crit, "num_threads(%d): critical entries", k);
  check(ITERS, master_cnt, "num_threads(%d): master executions", k);
  return 0;
}

int main(void)
{
  omp_set_dynamic(0);
  run(8);
  run(12);
  return failures != 0;
}
