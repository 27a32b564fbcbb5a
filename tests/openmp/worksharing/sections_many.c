// Checks sections constructs with 40 sections (in a region and as parallel sections), 50 instances each: every section runs exactly once per instance.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define REPS 50
#define NS 40
static int hits[REPS][NS];

static void hit(int r, int s) {
#pragma omp atomic
  hits[r][s]++;
}

/* The NS sections of one instance r: section s calls hit(r, s). */
#define SECTION(r, s) _Pragma("omp section") hit(r, s);
#define TEN_SECTIONS(r, s)                                                     \
  SECTION(r, s) SECTION(r, s + 1) SECTION(r, s + 2) SECTION(r, s + 3)          \
  SECTION(r, s + 4) SECTION(r, s + 5) SECTION(r, s + 6) SECTION(r, s + 7)      \
  SECTION(r, s + 8) SECTION(r, s + 9)
#define FORTY_SECTIONS(r)                                                      \
  TEN_SECTIONS(r, 0) TEN_SECTIONS(r, 10) TEN_SECTIONS(r, 20) TEN_SECTIONS(r, 30)

int main(void) {
#pragma omp parallel
  for (int r = 0; r < REPS; r++) {
#pragma omp sections
    {
      FORTY_SECTIONS(r)
    }
  }
  for (int r = 0; r < REPS; r++)
    for (int s = 0; s < NS; s++) {
      CHECK(1, hits[r][s], "instance %d section %d ran", r, s);
      hits[r][s] = 0;
    }

  for (int r = 0; r < REPS; r++) {
#pragma omp parallel sections
    {
      FORTY_SECTIONS(r)
    }
  }
  for (int r = 0; r < REPS; r++)
    for (int s = 0; s < NS; s++)
      CHECK(1, hits[r][s], "parallel sections instance %d section %d ran", r, s);
  return fails != 0;
}
