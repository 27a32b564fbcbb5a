// Checks orphaned sections (in a function called from a parallel region, and called with no region), with nowait and lastprivate: every section runs exactly once per call.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define CALLS 100
static int hits[CALLS + 1][3], lastv;

static void work(int c) {
#pragma omp sections lastprivate(lastv)
  {
#pragma omp section
    {
#pragma omp atomic
      hits[c][0]++;
      lastv = -1;
    }
#pragma omp section
    {
#pragma omp atomic
      hits[c][1]++;
      lastv = c;
    }
  }
#pragma omp sections nowait
  {
#pragma omp section
#pragma omp atomic
    hits[c][2]++;
  }
}

int main(void) {
  int wrong = 0;
#pragma omp parallel reduction(+ : wrong)
  for (int c = 0; c < CALLS; c++) {
    work(c);
    /* lastv is final after the implicit barrier of the first sections. */
    wrong += lastv != c;
#pragma omp barrier
  }
  CHECK(0, wrong, "reads of a wrong lastprivate after orphaned sections");
  work(CALLS); /* no enclosing region: one thread runs every section */
  CHECK(CALLS, lastv, "lastprivate with no enclosing region");
  for (int c = 0; c <= CALLS; c++)
    for (int s = 0; s < 3; s++)
      CHECK(1, hits[c][s], "call %d section %d ran", c, s);
  return fails != 0;
}
