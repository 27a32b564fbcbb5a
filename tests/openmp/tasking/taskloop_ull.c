// Checks taskloop over unsigned long long induction variables (GOMP_taskloop_ull): bounds above 2^32 and near ULLONG_MAX, up and down steps, grainsize/num_tasks, with a reduction and lastprivate.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_ull.c"

#include "omp_check.h"

#include <limits.h>

int main(int argc, char **argv)
{
  (void)argv;
  unsigned long long base = (1ULL << 40) + (unsigned long long)(argc - 1);
  unsigned long long top = ULLONG_MAX - 5 + (unsigned long long)(argc - 1);
  unsigned long long s1 = 0, s2 = 0, s3 = 0, cnt3 = 0, last = 0;
  static int hit[1000];
#pragma omp parallel shared(s1, s2, s3, cnt3, last, hit) firstprivate(base, top)
#pragma omp single
  {
#pragma omp taskloop grainsize(50) reduction(+ : s1)
    for (unsigned long long i = base; i < base + 1000; i++) {
      s1 += i - base;
      hit[i - base]++;
    }
    /* step 7 descending */
#pragma omp taskloop num_tasks(9) reduction(+ : s2) lastprivate(last)
    for (unsigned long long i = base + 700; i > base; i -= 7) {
      s2 += 1;
      last = i;
    }
    /* range ending just below ULLONG_MAX: the iteration count must not overflow */
#pragma omp taskloop grainsize(1) reduction(+ : s3, cnt3)
    for (unsigned long long i = top - 100; i < top; i++) {
      s3 += top - i;
      cnt3 += 1;
    }
  }
  int bad = 0;
  for (int k = 0; k < 1000; k++)
    bad += hit[k] != 1;
  EXPECT(0, bad, "ull iterations not hit exactly once");
  EXPECT(499500, (long long)s1, "ull sum");
  EXPECT(100, (long long)s2, "descending ull iteration count");
  EXPECT(1, last == base + 7, "lastprivate of descending ull loop is base+7");
  EXPECT(100, (long long)cnt3, "iterations near ULLONG_MAX");
  EXPECT(5050, (long long)s3, "sum near ULLONG_MAX");
  return failures != 0;
}
