// Checks 2000 consecutive dynamic nowait loops in one parallel region with a late thread, so threads are hundreds of work shares apart: every iteration of every loop runs once.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define LOOPS 2000
#define N 5
static unsigned char hits[LOOPS][N];
static int started; /* loops whose iteration 0 has run */

int main(void) {
  for (int rep = 0; rep < 2; rep++) {
    for (int l = 0; l < LOOPS; l++)
      for (int i = 0; i < N; i++)
        hits[l][i] = 0;
    started = 0;
#pragma omp parallel
    {
      /* One thread holds back until the others are half-way through the
         loops (or a bounded time has passed: a runtime may make them wait). */
      if (omp_get_thread_num() == rep % omp_get_num_threads() && omp_get_num_threads() > 1)
        for (long spin = 0; spin < 20000000; spin++) {
          int s;
#pragma omp atomic read
          s = started;
          if (s >= LOOPS / 2)
            break;
        }
      for (int l = 0; l < LOOPS; l++) {
#pragma omp for schedule(dynamic) nowait
        for (int i = 0; i < N; i++) {
#pragma omp atomic
          hits[l][i]++;
          if (i == 0) {
#pragma omp atomic
            started++;
          }
        }
      }
    }
    for (int l = 0; l < LOOPS; l++)
      for (int i = 0; i < N; i++)
        CHECK(1, hits[l][i], "rep %d loop %d count[%d]", rep, l, i);
  }
  return fails != 0;
}
