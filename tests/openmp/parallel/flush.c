/* Checks flush: the spec's producer/consumer pattern (plain data, flush, atomic flag; consumer spins on the flag, flushes, reads the data) over 200 rounds with a rotating producer, using flush, flush(list), flush release/acquire/acq_rel. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <sched.h>
#define T 3
#define ROUNDS 200

static int data[ROUNDS];

int main(void)
{
  omp_set_dynamic(0);
  int flag = 0, stale = 0, team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    int n = omp_get_num_threads();
#pragma omp atomic
    team++;
    for (int r = 0; r < ROUNDS; r++) {
      if (t == r % n) {
        data[r] = r * 7 + 3;
        if (r % 2) {
#pragma omp flush
        } else {
#pragma omp flush release
        }
#pragma omp atomic write
        flag = r + 1;
#pragma omp flush(flag)
      } else {
        int f;
        for (;;) {
#pragma omp atomic read
          f = flag;
          if (f >= r + 1)
            break;
          sched_yield();
        }
        if (r % 3 == 0) {
#pragma omp flush
        } else if (r % 3 == 1) {
#pragma omp flush acquire
        } else {
#pragma omp flush acq_rel
        }
        if (data[r] != r * 7 + 3) {
#pragma omp atomic
          stale++;
        }
      }
#pragma omp barrier
    }
  }
  check(T, team, "team size");
  check(0, stale, "consumers that read stale data after flush");
  check(ROUNDS, flag, "final flag");
  return failures != 0;
}
