// Checks tasks created inside worksharing loops (static/dynamic, nowait+barrier): the loop's implicit barrier (or an explicit one) completes all of them, and each runs once with its iteration's values.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_in_parallel_for.c"

#include "omp_check.h"

#define N 1000

int main(void)
{
  static int hits[N], hits2[N], hits3[N];
  long sum = 0;
  int bad = 0;
#pragma omp parallel shared(hits, hits2, hits3, sum, bad)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      {
        spin(50);
        __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp atomic
        sum += i;
      }
    }
    /* implicit barrier of the loop: all tasks done */
    for (int i = omp_get_thread_num(); i < N; i += omp_get_num_threads())
      if (__atomic_load_n(&hits[i], __ATOMIC_RELAXED) != 1) {
#pragma omp atomic
        bad++;
      }
#pragma omp for schedule(dynamic, 7) nowait
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      {
        /* nested task */
#pragma omp task firstprivate(i)
        __atomic_fetch_add(&hits2[i], 1, __ATOMIC_RELAXED);
      }
    }
#pragma omp barrier
    for (int i = omp_get_thread_num(); i < N; i += omp_get_num_threads())
      if (__atomic_load_n(&hits2[i], __ATOMIC_RELAXED) != 1) {
#pragma omp atomic
        bad++;
      }
    /* combined with dependences between tasks of the same thread */
#pragma omp for schedule(static, 10)
    for (int i = 0; i < N; i++) {
      int v = 0;
#pragma omp task depend(out : v) shared(v) firstprivate(i)
      v = i + 1;
#pragma omp task depend(in : v) shared(v) firstprivate(i)
      __atomic_fetch_add(&hits3[i], v == i + 1 ? 1 : 100, __ATOMIC_RELAXED);
#pragma omp taskwait
    }
  }
  EXPECT((long)N * (N - 1) / 2, sum, "sum of task values");
  EXPECT(0, bad, "tasks not complete after the loop barrier");
  int bad3 = 0;
  for (int i = 0; i < N; i++)
    bad3 += hits3[i] != 1;
  EXPECT(0, bad3, "dependent task pairs inside the loop");
  return failures != 0;
}
