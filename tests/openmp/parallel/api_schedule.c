/* Checks omp_set_schedule/omp_get_schedule round trips for static, dynamic, guided and auto with several chunk sizes and with the monotonic modifier, that run-sched-var is inherited by the threads of a region, and that a schedule(runtime) loop then covers every iteration exactly once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define N 1000

static int hits[N];

int main(void)
{
  omp_set_dynamic(0);
  const omp_sched_t kinds[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided, omp_sched_auto};
  const int chunks[] = {1, 3, 7, 64};
  for (int m = 0; m < 2; m++) {
    for (int ki = 0; ki < 4; ki++) {
      for (int ci = 0; ci < 4; ci++) {
        omp_sched_t kind = kinds[ki];
        if (m)
          kind = (omp_sched_t)(kind | omp_sched_monotonic);
        omp_set_schedule(kind, chunks[ci]);
        omp_sched_t got;
        int chunk = -1;
        omp_get_schedule(&got, &chunk);
        check(kind, got, "kind after omp_set_schedule(%#x, %d)", (unsigned)kind, chunks[ci]);
        if (kinds[ki] != omp_sched_auto)
          check(chunks[ci], chunk, "chunk after omp_set_schedule(%#x, %d)", (unsigned)kind, chunks[ci]);
        int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
        {
          omp_sched_t k2;
          int c2;
          omp_get_schedule(&k2, &c2);
          bad += k2 != got || c2 != chunk;
        }
        check(0, bad, "threads with a different schedule for %#x,%d", (unsigned)kind, chunks[ci]);
        for (int i = 0; i < N; i++)
          hits[i] = 0;
#pragma omp parallel for schedule(runtime) num_threads(3)
        for (int i = 0; i < N; i++)
          hits[i]++;
        for (int i = 0; i < N; i++)
          check(1, hits[i], "schedule(runtime) %#x,%d: times iteration %d ran", (unsigned)kind, chunks[ci], i);
      }
    }
  }
  return failures != 0;
}
