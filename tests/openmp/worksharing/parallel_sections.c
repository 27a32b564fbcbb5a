// Checks combined parallel sections (GOMP_parallel_sections), 100 times, with 1, 3 and 6 sections, a num_threads(2) team every 20th time, firstprivate and reduction: every section runs exactly once per instance, clause values right.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define REPS 100
static int hits[REPS][10];

static void hit(int r, int s) {
#pragma omp atomic
  hits[r][s]++;
}

int main(void) {
  for (int r = 0; r < REPS; r++) {
    int base = r, bad = 0, sum = 0;
#pragma omp parallel sections firstprivate(base) reduction(+ : sum, bad)
    {
#pragma omp section
      {
        hit(r, 0);
        bad += base != r;
        sum += 1;
      }
#pragma omp section
      {
        hit(r, 1);
        bad += base != r;
        sum += 10;
      }
#pragma omp section
      {
        hit(r, 2);
        bad += base != r;
        sum += 100;
      }
    }
    CHECK(0, bad, "instance %d sections with a wrong firstprivate", r);
    CHECK(111, sum, "instance %d reduction over sections", r);

    /* A smaller team now and then (team resizing is slow in some runtimes). */
#pragma omp parallel sections num_threads(r % 20 == 0 ? 2 : omp_get_max_threads())
    {
#pragma omp section
      hit(r, 3);
#pragma omp section
      hit(r, 4);
#pragma omp section
      hit(r, 5);
#pragma omp section
      hit(r, 6);
#pragma omp section
      hit(r, 7);
#pragma omp section
      hit(r, 8);
    }

#pragma omp parallel sections
    {
      hit(r, 9);
    }
  }
  for (int r = 0; r < REPS; r++)
    for (int s = 0; s < 10; s++)
      CHECK(1, hits[r][s], "instance %d section %d ran", r, s);
  return fails != 0;
}
