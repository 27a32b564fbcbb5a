// Checks recursive fibonacci with tasks and three cutoff styles (if clause, final clause, manual serial cutoff) against the closed sequential result.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_fib.c"

#include "omp_check.h"

#define N 24

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

static long fib_if(int n)
{
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a) if (n > 12)
  a = fib_if(n - 1);
#pragma omp task shared(b) if (n > 12)
  b = fib_if(n - 2);
#pragma omp taskwait
  return a + b;
}

static long fib_final(int n)
{
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a) final(n <= 12) mergeable
  a = fib_final(n - 1);
#pragma omp task shared(b) final(n <= 12) mergeable
  b = fib_final(n - 2);
#pragma omp taskwait
  return a + b;
}

static long fib_cut(int n)
{
  if (n < 14)
    return fib_seq(n);
  long a, b;
#pragma omp task shared(a)
  a = fib_cut(n - 1);
  b = fib_cut(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void)
{
  long expect = fib_seq(N);
  long r1 = 0, r2 = 0, r3 = 0;
#pragma omp parallel shared(r1, r2, r3)
#pragma omp single
  {
#pragma omp task shared(r1)
    r1 = fib_if(N);
#pragma omp task shared(r2)
    r2 = fib_final(N);
    r3 = fib_cut(N + 2);
  }
  EXPECT(expect, r1, "fib(%d) with if() cutoff", N);
  EXPECT(expect, r2, "fib(%d) with final() cutoff", N);
  EXPECT(fib_seq(N + 2), r3, "fib(%d) with manual cutoff", N + 2);
  return failures != 0;
}
