// Checks task reductions on ordered worksharing loops: for ordered reduction(task,+:x) (ordered block runs in iteration order) and a doacross loop ordered(1) reduction(task,+:y) with depend(sink/source), for int and unsigned long long loops, with in_reduction tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "ws_task_reduction_ordered.c"

#include "omp_check.h"

#define N 60

int main(void)
{
  long x = 0, y = 0, ux = 0, uy = 0;
  const unsigned long long B = 1ULL << 63; /* forces the unsigned long long entry points */
  int seq_bad = 0, next = 0;
  static long val[N];
#pragma omp parallel shared(x, y, ux, uy, seq_bad, next, val) firstprivate(B)
  {
#pragma omp for ordered reduction(task, + : x) schedule(static, 10)
    for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : x) firstprivate(i)
      x += i;
#pragma omp ordered
      {
        if (next != i)
          seq_bad++;
        next = i + 1;
      }
    }
#pragma omp for ordered(1) reduction(task, + : y) schedule(static)
    for (int i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
      val[i] = (i > 0 ? val[i - 1] : 0) + 1;
#pragma omp ordered depend(source)
#pragma omp task in_reduction(+ : y) firstprivate(i)
      y += 2;
    }
#pragma omp for ordered reduction(task, + : ux) schedule(static, 10)
    for (unsigned long long i = B; i < B + N; i++) {
#pragma omp task in_reduction(+ : ux)
      ux += 1;
#pragma omp ordered
      {
        if (next != (int)(i - B) + N)
          seq_bad++;
        next++;
      }
    }
#pragma omp for ordered(1) reduction(task, + : uy) schedule(static)
    for (unsigned long long i = B; i < B + N; i++) {
#pragma omp ordered depend(sink : i - 1)
      val[i - B] += 1;
#pragma omp ordered depend(source)
#pragma omp task in_reduction(+ : uy)
      uy += 3;
    }
  }
  EXPECT((long)N * (N - 1) / 2, x, "ordered loop task reduction");
  EXPECT(N, ux, "unsigned long long ordered loop task reduction");
  EXPECT(3L * N, uy, "unsigned long long doacross loop task reduction");
  EXPECT(0, seq_bad, "ordered blocks out of iteration order");
  EXPECT(2L * N, y, "doacross loop task reduction");
  EXPECT(N + 1, val[N - 1], "doacross chain value");
  return failures != 0;
}
