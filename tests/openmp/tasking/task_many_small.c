// Checks 100000 tiny tasks (from one producer, and from all threads) all run exactly once and their contributions sum correctly.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_many_small.c"

#include "omp_check.h"

#define N 100000

static unsigned char ran[N];

int main(void)
{
  long sum = 0;
#pragma omp parallel shared(sum)
  {
#pragma omp single
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      {
        ran[i]++;
#pragma omp atomic
        sum += i & 7;
      }
    }
    /* every thread produces a share of another 100000 */
    int nt = omp_get_num_threads(), me = omp_get_thread_num();
    for (int i = me; i < N; i += nt) {
#pragma omp task firstprivate(i)
      {
#pragma omp atomic
        ran[i]++;
      }
    }
  }
  long expect = 0;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    expect += i & 7;
    bad += ran[i] != 2;
  }
  EXPECT(expect, sum, "sum of task contributions");
  EXPECT(0, bad, "tasks run count != 2");
  return failures != 0;
}
