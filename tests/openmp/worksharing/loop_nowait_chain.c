// Checks back-to-back nowait loops (dynamic, guided, static chunk, runtime, monotonic, static) repeated 100 times in one region with no barrier, while one thread starts late: every iteration of every loop instance runs once.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define REPS 100
#define N 48
#define LOOPS 6
static int hits[REPS][LOOPS][N];
static int started; /* loop instances whose iteration 0 has run */

int main(void) {
  omp_set_schedule(omp_sched_guided, 2);
#pragma omp parallel
  {
    /* The last thread holds back until the others are half-way through (or a
       bounded time has passed: a runtime may make them wait for it). */
    if (omp_get_thread_num() == omp_get_num_threads() - 1 && omp_get_num_threads() > 1)
      for (long spin = 0; spin < 20000000; spin++) {
        int s;
#pragma omp atomic read
        s = started;
        if (s >= REPS * LOOPS / 2)
          break;
      }
    for (int r = 0; r < REPS; r++) {
#pragma omp for schedule(dynamic) nowait
      for (int i = 0; i < N; i++) {
#pragma omp atomic
        hits[r][0][i]++;
        if (i == 0) {
#pragma omp atomic
          started += LOOPS;
        }
      }
#pragma omp for schedule(guided, 3) nowait
      for (int i = N - 1; i >= 0; i--)
#pragma omp atomic
        hits[r][1][i]++;
#pragma omp for schedule(static, 5) nowait
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[r][2][i]++;
#pragma omp for schedule(runtime) nowait
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[r][3][i]++;
#pragma omp for schedule(monotonic:dynamic, 4) nowait
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[r][4][i]++;
#pragma omp for schedule(static) nowait
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[r][5][i]++;
    }
  }
  for (int r = 0; r < REPS; r++)
    for (int l = 0; l < LOOPS; l++)
      for (int i = 0; i < N; i++)
        CHECK(1, hits[r][l][i], "repetition %d loop %d count[%d]", r, l, i);
  return fails != 0;
}
