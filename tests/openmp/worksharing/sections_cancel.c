// Checks cancel sections with OMP_CANCELLATION=true (.env): the cancelling section stops at the cancel, no section runs twice, and the next sections construct in the region runs every section.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define REPS 50
static int started[REPS][4], finished[REPS][4], after[REPS][3];

int main(void) {
  CHECK(1, omp_get_cancellation(), "omp_get_cancellation with OMP_CANCELLATION=true");
#pragma omp parallel
  for (int r = 0; r < REPS; r++) {
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp atomic
        started[r][0]++;
#pragma omp cancel sections
#pragma omp atomic
        finished[r][0]++;
      }
#pragma omp section
      {
#pragma omp atomic
        started[r][1]++;
#pragma omp cancellation point sections
#pragma omp atomic
        finished[r][1]++;
      }
#pragma omp section
      {
#pragma omp atomic
        started[r][2]++;
#pragma omp atomic
        finished[r][2]++;
      }
#pragma omp section
      {
#pragma omp atomic
        started[r][3]++;
#pragma omp cancel sections if (r % 2)
#pragma omp atomic
        finished[r][3]++;
      }
    }
    /* Not cancelled. */
#pragma omp sections
    {
#pragma omp section
#pragma omp atomic
      after[r][0]++;
#pragma omp section
#pragma omp atomic
      after[r][1]++;
#pragma omp section
#pragma omp atomic
      after[r][2]++;
    }
  }
  for (int r = 0; r < REPS; r++) {
    for (int s = 0; s < 4; s++) {
      CHECK(1, started[r][s] <= 1, "instance %d section %d started at most once", r, s);
      CHECK(1, finished[r][s] <= started[r][s], "instance %d section %d finished only if started", r, s);
    }
    CHECK(0, finished[r][0], "instance %d: section 0 went on after its cancel", r);
    if (r % 2)
      CHECK(0, finished[r][3], "instance %d: section 3 went on after its cancel", r);
    for (int s = 0; s < 3; s++)
      CHECK(1, after[r][s], "instance %d: section %d of the next sections construct ran", r, s);
  }
  return fails != 0;
}
