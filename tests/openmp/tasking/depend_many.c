// Checks tasks with many dependences: a reader with 20 in-dependences waits for 20 writers, a writer with 20 out-dependences waits for all readers, and a 24-dependence task mixing out/mutexinoutset/in (new depend-array layout).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_many.c"

#include "omp_check.h"

#define ROUNDS 30
#define L20(k) v[k + 0], v[k + 1], v[k + 2], v[k + 3], v[k + 4], v[k + 5], v[k + 6], v[k + 7], v[k + 8], v[k + 9], \
               v[k + 10], v[k + 11], v[k + 12], v[k + 13], v[k + 14], v[k + 15], v[k + 16], v[k + 17], v[k + 18], v[k + 19]

int main(void)
{
  int v[24];
  memset(v, 0, sizeof v);
  int bad = 0;
#pragma omp parallel shared(v, bad)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    long sum20 = -1, sum_after = -1, sum_mixed = -1;
    for (int k = 0; k < 20; k++) {
#pragma omp task depend(out : v[k]) shared(v) firstprivate(k)
      {
        spin(100 * (k % 7));
        v[k] = k + r;
      }
    }
#pragma omp task depend(in : L20(0)) shared(v, sum20)
    {
      long s = 0;
      for (int k = 0; k < 20; k++)
        s += v[k];
      sum20 = s;
    }
    /* 20 single-element readers, then one task writing all 20: must wait for every reader */
    for (int k = 0; k < 20; k++) {
#pragma omp task depend(in : v[k]) shared(v, bad) firstprivate(k)
      {
        spin(300);
        if (v[k] != k + r) {
#pragma omp atomic
          bad++;
        }
      }
    }
#pragma omp task depend(out : L20(0)) shared(v)
    for (int k = 0; k < 20; k++)
      v[k] = -k;
#pragma omp task depend(in : v[0], v[19], v[10]) shared(v, sum_after)
    sum_after = v[0] + v[19] + v[10];
    /* new layout: out on v[20..23], mutexinoutset on v[0..3], in on v[4..19] */
#pragma omp task depend(out : v[20], v[21], v[22], v[23]) depend(mutexinoutset : v[0], v[1], v[2], v[3]) \
    depend(in : v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18], v[19]) \
    shared(v)
    {
      for (int k = 20; k < 24; k++)
        v[k] = v[k - 16] + 100; /* v[4..7] = -4..-7 */
      for (int k = 0; k < 4; k++)
        v[k] += 1;
    }
#pragma omp task depend(in : v[20], v[21], v[22], v[23], v[0], v[1], v[2], v[3]) shared(v, sum_mixed)
    {
      long s = 0;
      for (int k = 0; k < 4; k++)
        s += v[k] + v[k + 20];
      sum_mixed = s;
    }
#pragma omp taskwait
    EXPECT(190 + 20L * r, sum20, "round %d: sum seen by the 20-dependence reader", r);
    EXPECT(-29, sum_after, "round %d: reader after the 20-dependence writer", r);
    EXPECT((1 + 0 - 1 - 2) + (96 + 95 + 94 + 93), sum_mixed, "round %d: after the mixed 24-dependence task", r);
  }
  EXPECT(0, bad, "single-element readers that saw stale values");
  return failures != 0;
}
