// Checks single tasks whose depend clauses mix kinds (out+in+mutexinoutset+depobj, which makes GCC use its newer depend-array layout) are ordered correctly against plain-layout tasks on the same variables.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_mixed_kinds.c"

#include "omp_check.h"

#define ROUNDS 50

int main(void)
{
  int a = 0, b = 0, c = 0, d = 0, e = 0;
  int bad = 0;
  (void)e; /* only named in depend clauses */
  omp_depend_t od;
#pragma omp depobj(od) depend(inout : d)
#pragma omp parallel shared(a, b, c, d, e, bad, od)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int seen[4] = {-1, -1, -1, -1};
    /* old layout writers */
#pragma omp task depend(out : b) shared(b)
    {
      spin(2000);
      b = r;
    }
#pragma omp task depend(out : c) shared(c)
    {
      spin(1000);
      c = 2 * r;
    }
#pragma omp task depend(out : d) shared(d)
    d = 0;
    /* new layout: out a, in b, mutexinoutset c, depobj(inout) d */
#pragma omp task depend(out : a) depend(in : b) depend(mutexinoutset : c) depend(depobj : od) shared(a, b, c, d)
    {
      spin(1000);
      a = b + 1;
      c = c + 1;
      d = d + 5;
    }
    /* second member of c's mutexinoutset set, also new layout */
#pragma omp task depend(mutexinoutset : c) depend(in : e) shared(c)
    c = c + 10;
    /* old-layout readers after the mixed tasks */
#pragma omp task depend(in : a) shared(a, seen)
    seen[0] = a;
#pragma omp task depend(in : c) shared(c, seen)
    seen[1] = c;
#pragma omp task depend(in : d) shared(d, seen)
    seen[2] = d;
    /* old-layout writer of b: must wait for the mixed task's read of b */
#pragma omp task depend(inout : b) shared(b, seen)
    {
      seen[3] = b;
      b = -1;
    }
#pragma omp taskwait
    EXPECT(r + 1, seen[0], "round %d: a written by mixed task", r);
    EXPECT(2 * r + 11, seen[1], "round %d: c after the mutexinoutset pair", r);
    EXPECT(5, seen[2], "round %d: d written through depobj in mixed task", r);
    EXPECT(r, seen[3], "round %d: b writer ran after mixed reader", r);
    if (a != r + 1)
      bad++;
  }
  EXPECT(0, bad, "final a mismatches");
#pragma omp depobj(od) destroy
  return failures != 0;
}
