// Checks task reductions with the operators +, -, *, &, |, ^, &&, ||, max and min over several variables in one taskgroup.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_reduction_ops.c"

#include "omp_check.h"

#define N 62

int main(void)
{
  long sum = 5, sub = 0;
  unsigned long prod = 1;
  unsigned long band = ~0UL, bor = 0, bxor = 0;
  int land = 1, lor = 0;
  long mx = -1000000, mn = 1000000;
#pragma omp parallel shared(sum, sub, prod, band, bor, bxor, land, lor, mx, mn)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : sum) task_reduction(- : sub) task_reduction(* : prod) \
    task_reduction(& : band) task_reduction(| : bor) task_reduction(^ : bxor) task_reduction(&& : land) \
    task_reduction(|| : lor) task_reduction(max : mx) task_reduction(min : mn)
  for (int i = 1; i <= N; i++) {
#pragma omp task in_reduction(+ : sum) in_reduction(- : sub) in_reduction(* : prod) firstprivate(i)
    {
      sum += i;
      sub += i; /* '-' combines partial results with '+' */
      if (i % 10 == 0)
        prod *= 3;
    }
#pragma omp task in_reduction(& : band) in_reduction(| : bor) in_reduction(^ : bxor) firstprivate(i)
    {
      band &= ~(1UL << (i % 64));
      bor |= 1UL << (i % 64);
      bxor ^= (unsigned long)i * 0x9e3779b97f4a7c15UL;
    }
#pragma omp task in_reduction(&& : land) in_reduction(|| : lor) in_reduction(max : mx) in_reduction(min : mn) firstprivate(i)
    {
      land = land && (i != 0);
      lor = lor || (i == 37);
      long v = (i * 37) % 101 - 50;
      if (v > mx)
        mx = v;
      if (v < mn)
        mn = v;
    }
  }
  unsigned long ebxor = 0, eband = ~0UL, ebor = 0;
  long emx = -1000000, emn = 1000000;
  for (int i = 1; i <= N; i++) {
    ebxor ^= (unsigned long)i * 0x9e3779b97f4a7c15UL;
    eband &= ~(1UL << (i % 64));
    ebor |= 1UL << (i % 64);
    long v = (i * 37) % 101 - 50;
    emx = v > emx ? v : emx;
    emn = v < emn ? v : emn;
  }
  EXPECT(5 + N * (N + 1) / 2, sum, "+");
  EXPECT(N * (N + 1) / 2, sub, "-");
  EXPECT(729, prod, "* (3^6)");
  EXPECT((long long)eband, (long long)band, "&");
  EXPECT((long long)ebor, (long long)bor, "|");
  EXPECT((long long)ebxor, (long long)bxor, "^");
  EXPECT(1, land, "&&");
  EXPECT(1, lor, "||");
  EXPECT(emx, mx, "max");
  EXPECT(emn, mn, "min");
  return failures != 0;
}
