/* Checks memory-order clauses on atomics: release writes / acquire reads publish plain data (message passing, no waiting: every observed flag value guarantees its data), and seq_cst, acq_rel, relaxed update/capture forms lose no updates. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define K 3000

static int data[K + 1];

int main(void)
{
  omp_set_dynamic(0);
  int flag = 0;
  long sc = 0, ar = 0, rl = 0, cap = 0;
  int stale = 0, team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    if (t == 0) {
      for (int k = 1; k <= K; k++) {
        data[k] = k * 3 + 1; /* each slot written once, before its flag value */
#pragma omp atomic write release
        flag = k;
      }
    } else {
      int mine = 0;
      for (int r = 0; r < K; r++) {
        int f;
#pragma omp atomic read acquire
        f = flag;
        if (f > 0 && data[f] != f * 3 + 1)
          mine++;
        if (f > 1 && data[f / 2] != (f / 2) * 3 + 1)
          mine++;
      }
#pragma omp atomic
      stale += mine;
    }
    for (int i = 0; i < 1000; i++) {
#pragma omp atomic update seq_cst
      sc += 2;
#pragma omp atomic acq_rel
      ar += 3;
#pragma omp atomic relaxed
      rl++;
      long old;
#pragma omp atomic capture seq_cst
      {
        old = cap;
        cap += 1;
      }
      if (old < 0 || old >= (long)T * 1000) {
#pragma omp atomic
        stale++;
      }
    }
  }
  check(T, team, "team size");
  check(0, stale, "acquire reads that saw a flag without its data (or bad captures)");
  check(2000L * T, sc, "seq_cst update");
  check(3000L * T, ar, "acq_rel update");
  check(1000L * T, rl, "relaxed update");
  check(1000L * T, cap, "seq_cst capture");
  int f;
#pragma omp atomic read seq_cst
  f = flag;
  check(K, f, "final flag");
  return failures != 0;
}
