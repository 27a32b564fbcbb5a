/* Checks simple locks: omp_init_lock/omp_set_lock/omp_unset_lock/omp_destroy_lock give mutual exclusion with no lost updates under contention (teams of 4 and 8), a lock can be re-initialised after destroy, and locks initialised in one region work in the next. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

static void run(omp_lock_t *l, int k, int per)
{
  long counter = 0;
  int occ = 0, overlaps = 0, team = 0;
#pragma omp parallel num_threads(k) shared(counter, occ, overlaps, team)
  {
#pragma omp atomic
    team++;
    for (int i = 0; i < per; i++) {
      omp_set_lock(l);
      if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
        overlaps++;
      long c = counter;
      counter = c + 1;
      __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
      omp_unset_lock(l);
    }
  }
  check(k, team, "team of %d: size", k);
  check((long long)k * per, counter, "team of %d: counter", k);
  check(0, overlaps, "team of %d: overlapping lock holders", k);
}

int main(void)
{
  omp_set_dynamic(0);
  omp_lock_t l;
  omp_init_lock(&l);
  run(&l, 4, 4000);
  run(&l, 8, 1500);
  omp_destroy_lock(&l);
  omp_init_lock(&l);
  run(&l, 3, 2000);
  omp_destroy_lock(&l);
  /* a lock initialised inside one region and used in the next */
  static omp_lock_t shared_lock;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    omp_init_lock(&shared_lock);
  }
  run(&shared_lock, 4, 1000);
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    omp_destroy_lock(&shared_lock);
  }
  return failures != 0;
}
