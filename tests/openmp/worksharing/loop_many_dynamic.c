// Checks 1500 consecutive dynamic and guided loops (with implicit barriers) in one parallel region, a stress of work-share start and end: every iteration of every loop runs once.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define LOOPS 1500
#define N 6
static unsigned char hits[LOOPS][N];

int main(void) {
#pragma omp parallel
  for (int l = 0; l < LOOPS; l++) {
    if (l % 3 == 2) {
#pragma omp for schedule(guided)
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[l][i]++;
    } else {
#pragma omp for schedule(dynamic, 1 + l % 2)
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[l][i]++;
    }
  }
  for (int l = 0; l < LOOPS; l++)
    for (int i = 0; i < N; i++)
      CHECK(1, hits[l][i], "loop %d count[%d]", l, i);
  return fails != 0;
}
