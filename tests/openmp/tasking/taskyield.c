// Checks taskyield is accepted everywhere (implicit task, tied/untied/final tasks, inside taskgroup, between dependent tasks) and never changes results or loses tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskyield.c"

#include "omp_check.h"

#define N 2000

int main(void)
{
  static int ran[N];
  long chain = 0;
#pragma omp parallel shared(ran, chain)
  {
#pragma omp taskyield
#pragma omp single
    {
#pragma omp taskgroup
      for (int i = 0; i < N; i++) {
        if (i % 3 == 0) {
#pragma omp task firstprivate(i)
          {
#pragma omp taskyield
            __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
#pragma omp taskyield
          }
        } else if (i % 3 == 1) {
#pragma omp task untied firstprivate(i)
          {
            for (int k = 0; k < 3; k++) {
#pragma omp taskyield
            }
            __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
          }
        } else {
#pragma omp task final(1) firstprivate(i)
          {
#pragma omp task firstprivate(i)
            {
#pragma omp taskyield
              __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
            }
          }
        }
#pragma omp taskyield
      }
      for (int i = 0; i < 100; i++) {
#pragma omp task depend(inout : chain) firstprivate(i)
        {
#pragma omp taskyield
          if (chain != i)
            chain = -1000000;
          chain++;
        }
      }
#pragma omp taskyield
#pragma omp taskwait
    }
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += ran[i] != 1;
  EXPECT(0, bad, "tasks that did not run exactly once");
  EXPECT(100, chain, "dependent chain with taskyield");
  return failures != 0;
}
