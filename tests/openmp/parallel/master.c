/* Checks master: only thread 0 executes the block in each of 300 constructs, there is no implied barrier (an explicit one makes its write visible), and in a team of 1 the only thread executes it. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define ITERS 300

int main(void)
{
  omp_set_dynamic(0);
  static int execs[ITERS], who[ITERS];
  int val = -1, stale = 0;
#pragma omp parallel num_threads(4) shared(val, stale)
  {
    for (int i = 0; i < ITERS; i++) {
#pragma omp master
      {
#pragma omp atomic
        execs[i]++;
        who[i] = omp_get_thread_num();
        val = i;
      }
#pragma omp barrier
      if (val != i) {
#pragma omp atomic
        stale++;
      }
#pragma omp barrier
    }
  }
  check(0, stale, "reads of the master's write after the barrier that were stale");
  for (int i = 0; i < ITERS; i++) {
    check(1, execs[i], "executions of master #%d", i);
    check(0, who[i], "thread that executed master #%d", i);
  }
  int one = 0;
#pragma omp parallel num_threads(1)
  {
#pragma omp master
    one++;
  }
  check(1, one, "master executions in a team of 1");
  return failures != 0;
}
