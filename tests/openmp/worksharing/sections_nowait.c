// Checks 300 back-to-back sections nowait constructs in one region with a thread held back (threads far apart in the sequence of work shares): every section of every instance runs exactly once.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define REPS 300
static int hits[REPS][4], started;

int main(void) {
#pragma omp parallel
  {
    /* Thread 0 holds back until the others are half-way (or a bounded time
       has passed: a runtime may make them wait for it). */
    if (omp_get_thread_num() == 0 && omp_get_num_threads() > 1)
      for (long spin = 0; spin < 20000000; spin++) {
        int s;
#pragma omp atomic read
        s = started;
        if (s >= REPS / 2)
          break;
      }
    for (int r = 0; r < REPS; r++) {
#pragma omp sections nowait
      {
#pragma omp section
        {
#pragma omp atomic
          hits[r][0]++;
#pragma omp atomic
          started++;
        }
#pragma omp section
#pragma omp atomic
        hits[r][1]++;
#pragma omp section
#pragma omp atomic
        hits[r][2]++;
#pragma omp section
#pragma omp atomic
        hits[r][3]++;
      }
    }
  }
  for (int r = 0; r < REPS; r++)
    for (int s = 0; s < 4; s++)
      CHECK(1, hits[r][s], "instance %d section %d ran", r, s);
  return fails != 0;
}
