// Checks parallel reduction(task, +:x) (and *, max) where explicit tasks created by every thread use in_reduction, combined with ordinary work on the reduction variable by the implicit tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "parallel_task_reduction.c"

#include "omp_check.h"

int main(void)
{
  long x = 3, mx = -1;
  double p = 1.0;
  int nthreads = 0;
#pragma omp parallel reduction(task, + : x) reduction(task, max : mx) reduction(task, * : p) shared(nthreads)
  {
    int me = omp_get_thread_num();
#pragma omp single
    nthreads = omp_get_num_threads();
    x += 1; /* the implicit task's private copy */
    for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : x) in_reduction(max : mx) firstprivate(i, me)
      {
        x += i;
        long v = (long)me * 1000 + i;
        if (v > mx)
          mx = v;
      }
    }
#pragma omp single
    for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(* : p)
      p *= 2.0;
    }
  }
  EXPECT(3 + nthreads + (long)nthreads * 4950, x, "parallel task reduction + with %d threads", nthreads);
  EXPECT((long)(nthreads - 1) * 1000 + 99, mx, "parallel task reduction max");
  EXPECT(1, p == 1024.0, "parallel task reduction * == 1024");
  return failures != 0;
}
