// Checks task reductions on worksharing constructs: for reduction(task,+:x) (int and unsigned long long loops), sections reduction(task,+:x) and scope reduction(task,+:x), with in_reduction tasks created inside them.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "ws_task_reduction.c"

#include "omp_check.h"

#define N 300

int main(void)
{
  long fx = 0, sx = 0, cx = 0, ux = 0;
  int nthreads = 0;
#pragma omp parallel shared(fx, sx, cx, ux, nthreads)
  {
#pragma omp single
    nthreads = omp_get_num_threads();
#pragma omp for reduction(task, + : fx) schedule(dynamic, 8)
    for (int i = 0; i < N; i++) {
      fx += 1;
#pragma omp task in_reduction(+ : fx) firstprivate(i)
      fx += i;
    }
    /* unsigned long long iteration variable: the _ull loop entry point */
#pragma omp for reduction(task, + : ux) schedule(dynamic, 16)
    for (unsigned long long i = 1ULL << 63; i < (1ULL << 63) + (1ULL << 33) + N; i += (1ULL << 33) / 16) {
#pragma omp task in_reduction(+ : ux)
      ux += 1;
    }
#pragma omp sections reduction(task, + : sx)
    {
#pragma omp section
      {
        for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : sx) firstprivate(i)
          sx += i;
        }
      }
#pragma omp section
      {
        sx += 1000;
#pragma omp task in_reduction(+ : sx)
        sx += 2000;
      }
    }
#pragma omp scope reduction(task, + : cx)
    {
      cx += 1;
#pragma omp task in_reduction(+ : cx)
      cx += 10;
    }
  }
  EXPECT(N + (long)N * (N - 1) / 2, fx, "for reduction(task, +)");
  EXPECT(17, ux, "for reduction(task, +) over an unsigned long long loop");
  EXPECT(1225 + 3000, sx, "sections reduction(task, +)");
  EXPECT(11L * nthreads, cx, "scope reduction(task, +) with %d threads", nthreads);
  return failures != 0;
}
