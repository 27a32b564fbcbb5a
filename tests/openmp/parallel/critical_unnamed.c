/* Checks unnamed critical under contention: non-atomic read-modify-writes of shared counters inside critical are never lost and never overlap (occupancy stays 1), for teams of 4 and 8. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

static void run(int k, int per)
{
  long counter = 0;
  double dsum = 0.0;
  int occupancy = 0, overlaps = 0, team = 0;
#pragma omp parallel num_threads(k) shared(counter, dsum, occupancy, overlaps, team)
  {
#pragma omp atomic
    team++;
    for (int i = 0; i < per; i++) {
#pragma omp critical
      {
        int o = __atomic_add_fetch(&occupancy, 1, __ATOMIC_RELAXED);
        if (o != 1)
          overlaps++;
        long c = counter;
        counter = c + 1;
        dsum += 0.5;
        __atomic_sub_fetch(&occupancy, 1, __ATOMIC_RELAXED);
      }
    }
  }
  check(k, team, "team of %d: size", k);
  check((long long)k * per, counter, "team of %d: counter after %d critical increments each", k, per);
  check((long long)k * per, (long long)(dsum * 2), "team of %d: double sum x2", k);
  check(0, overlaps, "team of %d: times two threads were inside critical together", k);
}

int main(void)
{
  omp_set_dynamic(0);
  run(4, 5000);
  run(8, 2000);
  return failures != 0;
}
