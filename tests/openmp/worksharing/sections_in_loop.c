// Checks a sections construct (4 sections, one slow) inside a loop of 500 iterations in one parallel region, each iteration's sections reading what the previous iteration's wrote: every section runs once per iteration and sees the previous iteration complete.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define ITERS 500
static int hits[ITERS][4], val[4], stale;

static void section(int it, int s) {
  /* The implicit barrier of the previous iteration's sections makes all
     of its writes visible. */
  for (int k = 0; k < 4; k++)
    if (val[k] != it) {
#pragma omp atomic
      stale++;
    }
  if (s == (it % 4))
    for (volatile int spin = 0; spin < 300; spin++)
      ;
#pragma omp atomic
  hits[it][s]++;
}

int main(void) {
#pragma omp parallel
  for (int it = 0; it < ITERS; it++) {
#pragma omp sections
    {
#pragma omp section
      section(it, 0);
#pragma omp section
      section(it, 1);
#pragma omp section
      section(it, 2);
#pragma omp section
      section(it, 3);
    }
    /* One thread publishes this iteration as complete. */
#pragma omp single
    for (int k = 0; k < 4; k++)
      val[k] = it + 1;
  }
  CHECK(0, stale, "sections that saw an earlier iteration incomplete");
  for (int it = 0; it < ITERS; it++)
    for (int s = 0; s < 4; s++)
      CHECK(1, hits[it][s], "iteration %d section %d ran", it, s);
  return fails != 0;
}
