/* Checks orphaned constructs (for, single, critical, master, barrier in a function) bind to the innermost enclosing team: called from a 4-thread region, from sequential code (team of 1) and from an inactive nested region. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define N 257

struct acc {
  int hits[N];
  int single_cnt, crit_cnt, master_cnt, team_sum;
};

static void orphan(struct acc *a)
{
#pragma omp for schedule(static)
  for (int i = 0; i < N; i++)
    a->hits[i]++;
#pragma omp single
  a->single_cnt++;
#pragma omp critical
  {
    a->crit_cnt++;
    a->team_sum += omp_get_num_threads();
  }
#pragma omp master
  a->master_cnt++;
#pragma omp barrier
}

static void verify(struct acc *a, int calls, int threads, const char *what)
{
  for (int i = 0; i < N; i++)
    check(calls, a->hits[i], "%s: times iteration %d ran", what, i);
  check(calls, a->single_cnt, "%s: single executions", what);
  check(calls * threads, a->crit_cnt, "%s: critical executions", what);
  check(calls * threads * threads, a->team_sum, "%s: sum of omp_get_num_threads() seen", what);
  check(calls, a->master_cnt, "%s: master executions", what);
}

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(1);
  for (int rep = 0; rep < 20; rep++) {
    struct acc par = {{0}, 0, 0, 0, 0}, seq = {{0}, 0, 0, 0, 0}, nest = {{0}, 0, 0, 0, 0};
#pragma omp parallel num_threads(4)
    {
      orphan(&par);
      orphan(&par);
    }
    verify(&par, 2, 4, "from a 4-thread region");
    orphan(&seq);
    verify(&seq, 1, 1, "from sequential code");
#pragma omp parallel num_threads(2)
    {
      int t = omp_get_thread_num();
#pragma omp parallel num_threads(3)
      {
        if (t == 1)
          orphan(&nest); /* inactive nested region: team of 1 */
      }
    }
    verify(&nest, 1, 1, "from an inactive nested region");
  }
  return failures != 0;
}
