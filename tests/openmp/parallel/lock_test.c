/* Checks omp_test_lock: it returns 0 while another thread holds the lock, 1 (and acquires) when the lock is free, and a test-and-retry loop gives mutual exclusion without lost updates. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <sched.h>
#define T 4

int main(void)
{
  omp_set_dynamic(0);
  omp_lock_t l;
  omp_init_lock(&l);
  for (int rep = 0; rep < 30; rep++) {
    int held_result[T], free_result[T], team = 0;
    for (int t = 0; t < T; t++)
      held_result[t] = free_result[t] = -1;
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      team++;
      if (t == 0)
        omp_set_lock(&l);
#pragma omp barrier
      if (t != 0)
        held_result[t] = omp_test_lock(&l); /* held by thread 0: must fail */
#pragma omp barrier
      if (t == 0)
        omp_unset_lock(&l);
#pragma omp barrier
      for (int r = 0; r < T; r++) { /* one thread at a time tries the free lock */
        if (t == r) {
          free_result[t] = omp_test_lock(&l);
          if (free_result[t])
            omp_unset_lock(&l);
        }
#pragma omp barrier
      }
    }
    check(T, team, "rep %d: team size", rep);
    for (int t = 1; t < T; t++)
      check(0, held_result[t], "rep %d: omp_test_lock by thread %d while thread 0 holds it", rep, t);
    for (int t = 0; t < T; t++)
      check(1, free_result[t], "rep %d: omp_test_lock by thread %d on a free lock", rep, t);
  }
  long counter = 0;
  int occ = 0, overlaps = 0;
#pragma omp parallel num_threads(T) shared(counter, occ, overlaps)
  {
    for (int i = 0; i < 1000; i++) {
      while (!omp_test_lock(&l))
        sched_yield();
      if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
        overlaps++;
      counter++;
      __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
      omp_unset_lock(&l);
    }
  }
  check(T * 1000, counter, "counter under omp_test_lock retry loops");
  check(0, overlaps, "overlapping holders under omp_test_lock");
  omp_destroy_lock(&l);
  return failures != 0;
}
