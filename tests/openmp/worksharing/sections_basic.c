// Checks the sections construct (1, 2, 3 and 5 sections; default team and num_threads(3)), 100 instances in one region: every section runs exactly once per instance, on a thread of the team.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define REPS 100
static int hits[REPS][11], team[REPS];

static void hit(int r, int s) {
#pragma omp atomic
  hits[r][s]++;
  if (omp_get_thread_num() >= omp_get_num_threads()) {
#pragma omp atomic
    hits[r][10]++; /* a thread number outside the team */
  }
}

static void run(int req) {
  for (int r = 0; r < REPS; r++)
    for (int s = 0; s < 11; s++)
      hits[r][s] = 0;
#pragma omp parallel num_threads(req)
  for (int r = 0; r < REPS; r++) {
#pragma omp single nowait
    team[r] = omp_get_num_threads();
#pragma omp sections
    {
      hit(r, 0);
    }
#pragma omp sections
    {
#pragma omp section
      hit(r, 1);
#pragma omp section
      hit(r, 2);
    }
#pragma omp sections
    {
#pragma omp section
      hit(r, 3);
#pragma omp section
      hit(r, 4);
#pragma omp section
      hit(r, 5);
    }
#pragma omp sections
    {
#pragma omp section
      hit(r, 6);
#pragma omp section
      {
        if (r % 3 == 0) /* uneven work */
          for (volatile int spin = 0; spin < 2000; spin++)
            ;
        hit(r, 7);
      }
#pragma omp section
      hit(r, 8);
#pragma omp section
      hit(r, 9);
#pragma omp section
      {
      }
    }
  }
  for (int r = 0; r < REPS; r++) {
    for (int s = 0; s < 10; s++)
      CHECK(1, hits[r][s], "team %d instance %d section %d ran", team[r], r, s);
    CHECK(0, hits[r][10], "team %d instance %d sections on threads outside the team", team[r], r);
  }
}

int main(void) {
  run(omp_get_max_threads());
  run(3);
  return fails != 0;
}
