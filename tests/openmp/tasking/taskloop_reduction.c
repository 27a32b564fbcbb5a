// Checks taskloop reduction clauses (+, *, max, min, |, user-defined) with grainsize and num_tasks, inside parallel and orphaned.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_reduction.c"

#include "omp_check.h"

struct pair {
  long lo, hi;
};
#pragma omp declare reduction(span:struct pair : omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, \
                                  omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) \
    initializer(omp_priv = (struct pair){1L << 40, -(1L << 40)})

int main(void)
{
  long s = 0, mx = -1, mn = 1L << 40;
  double prod = 1.0;
  unsigned bits = 0;
  struct pair sp = {1L << 40, -(1L << 40)};
  long s_orph = 7;
#pragma omp parallel shared(s, mx, mn, prod, bits, sp)
#pragma omp single
  {
#pragma omp taskloop grainsize(37) reduction(+ : s) reduction(max : mx) reduction(min : mn)
    for (int i = 0; i < 5000; i++) {
      long v = (i * 31L) % 997;
      s += v;
      if (v > mx)
        mx = v;
      if (v < mn)
        mn = v;
    }
#pragma omp taskloop num_tasks(8) reduction(* : prod) reduction(| : bits) reduction(span : sp)
    for (int i = 0; i < 32; i++) {
      if (i % 4 == 0)
        prod *= 2.0;
      bits |= 1u << i;
      long v = (long)i * i - 100;
      if (v < sp.lo)
        sp.lo = v;
      if (v > sp.hi)
        sp.hi = v;
    }
  }
#pragma omp taskloop reduction(+ : s_orph)
  for (int i = 0; i < 100; i++)
    s_orph += i;
  long es = 0, emx = -1, emn = 1L << 40;
  for (int i = 0; i < 5000; i++) {
    long v = (i * 31L) % 997;
    es += v;
    emx = v > emx ? v : emx;
    emn = v < emn ? v : emn;
  }
  EXPECT(es, s, "taskloop + reduction");
  EXPECT(emx, mx, "taskloop max reduction");
  EXPECT(emn, mn, "taskloop min reduction");
  EXPECT(1, prod == 256.0, "taskloop * reduction == 256");
  EXPECT((long long)0xffffffffu, bits, "taskloop | reduction");
  EXPECT(-100, sp.lo, "UDR span lo");
  EXPECT(31L * 31 - 100, sp.hi, "UDR span hi");
  EXPECT(7 + 4950, s_orph, "orphaned taskloop reduction");
  return failures != 0;
}
