/* Checks barrier phase ordering: in each of many phases every thread writes its slot, passes a barrier, and must see every other thread's write of this phase (and none of the next), for teams of 2, 3, 4 and 8. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define MAXT 8

static int run(int k, int phases)
{
  int slot[MAXT];
  int errors = 0, team = 0;
#pragma omp parallel num_threads(k) shared(slot, errors, team)
  {
    int t = omp_get_thread_num();
    int n = omp_get_num_threads();
    int mine = 0;
#pragma omp atomic
    team++;
    for (int p = 0; p < phases; p++) {
      slot[t] = p * MAXT + t;
#pragma omp barrier
      for (int j = 0; j < n; j++)
        if (slot[j] != p * MAXT + j)
          mine++;
#pragma omp barrier
    }
#pragma omp atomic
    errors += mine;
  }
  check(k, team, "team of %d: size", k);
  check(0, errors, "team of %d: slots with a wrong phase after barrier", k);
  return 0;
}

int main(void)
{
  omp_set_dynamic(0);
  run(2, 20);
  run(3, 150);
  run(4, 150);
  run(8, 60);
  return failures != 0;
}
