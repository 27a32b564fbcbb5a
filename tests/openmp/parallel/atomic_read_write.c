/* Checks atomic read and atomic write: readers never see a torn 64-bit or double value and (read-read coherence) never see the writer's sequence go backwards; concurrent atomic writes of self-consistent patterns leave one whole pattern. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define K 20000

static inline unsigned long long pat(unsigned long long k) { return (k << 32) | k; }

int main(void)
{
  omp_set_dynamic(0);
  unsigned long long x = 0;
  double dx = 0.0;
  unsigned long long w = 0;
  int torn = 0, backwards = 0, dtorn = 0, dback = 0, last_bad = 0, team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    if (t == 0) {
      for (unsigned long long k = 1; k <= K; k++) {
#pragma omp atomic write
        x = pat(k);
#pragma omp atomic write
        dx = (double)k;
      }
    } else {
      unsigned long long prev = 0;
      double dprev = 0.0;
      int my_torn = 0, my_back = 0, my_dtorn = 0, my_dback = 0;
      for (int r = 0; r < K; r++) {
        unsigned long long v;
        double dv;
#pragma omp atomic read
        v = x;
#pragma omp atomic read
        dv = dx;
        if ((v >> 32) != (v & 0xffffffffULL) || (v >> 32) > K)
          my_torn++;
        if (v < prev)
          my_back++;
        prev = v;
        if (dv != (double)(long long)dv || dv < 0 || dv > K)
          my_dtorn++;
        if (dv < dprev)
          my_dback++;
        dprev = dv;
      }
#pragma omp atomic
      torn += my_torn;
#pragma omp atomic
      backwards += my_back;
#pragma omp atomic
      dtorn += my_dtorn;
#pragma omp atomic
      dback += my_dback;
    }
    /* everybody writes whole patterns to w concurrently */
    for (int r = 0; r < 2000; r++) {
#pragma omp atomic write
      w = pat((unsigned long long)(t + 1) * 100000 + r);
    }
#pragma omp barrier
    unsigned long long fin;
#pragma omp atomic read
    fin = x;
    if (fin != pat(K)) {
#pragma omp atomic
      last_bad++;
    }
  }
  check(T, team, "team size");
  check(0, torn, "torn or out-of-range 64-bit atomic reads");
  check(0, backwards, "64-bit atomic reads that went backwards");
  check(0, dtorn, "torn or out-of-range double atomic reads");
  check(0, dback, "double atomic reads that went backwards");
  check(0, last_bad, "threads not seeing the final value after the barrier");
  unsigned long long hi = w >> 32, lo = w & 0xffffffffULL;
  check((long long)hi, (long long)lo, "concurrently written value is one whole pattern");
  check(1, lo % 100000 == 1999 && lo / 100000 >= 1 && lo / 100000 <= T, "final concurrent write is some thread's last (value %llu)", lo);
  return failures != 0;
}
