// Checks untied tasks (with nested untied children, taskwait and taskyield scheduling points) compute a correct tree sum and all run exactly once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_untied.c"

#include "omp_check.h"

#define N 4096

static long tree_sum(const int *a, int lo, int hi)
{
  if (hi - lo <= 64) {
    long s = 0;
    for (int i = lo; i < hi; i++)
      s += a[i];
    return s;
  }
  long l = 0, r = 0;
  int mid = lo + (hi - lo) / 2;
#pragma omp task untied shared(l)
  l = tree_sum(a, lo, mid);
#pragma omp task untied shared(r)
  r = tree_sum(a, mid, hi);
#pragma omp taskyield
#pragma omp taskwait
  return l + r;
}

int main(void)
{
  static int a[N];
  static int ran[N];
  long expect = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7919) % 1000 - 300;
    expect += a[i];
  }
  long got = 0;
#pragma omp parallel shared(got)
#pragma omp single
  {
#pragma omp task untied shared(got)
    got = tree_sum(a, 0, N);
    for (int i = 0; i < N; i++) {
#pragma omp task untied firstprivate(i) shared(ran)
      {
        __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
        if (i % 64 == 0) {
#pragma omp taskyield
        }
        __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
      }
    }
  }
  EXPECT(expect, got, "untied tree sum");
  for (int i = 0; i < N; i++)
    if (ran[i] != 2) {
      EXPECT(2, ran[i], "untied task %d step count", i);
      break;
    }
  return failures != 0;
}
