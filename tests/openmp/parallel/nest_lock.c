/* Checks nestable locks: omp_test_nest_lock returns the new nesting depth to the owner, 0 to other threads while held, 1 once free; recursive omp_set_nest_lock/omp_unset_nest_lock under contention gives mutual exclusion and no lost updates. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 3

static omp_nest_lock_t nl;
static long counter;
static int occ, overlaps;

static void rec(int depth)
{
  omp_set_nest_lock(&nl);
  if (depth == 0) {
    if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
      overlaps++;
    counter++;
    __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
  } else {
    counter++;
    rec(depth - 1);
  }
  omp_unset_nest_lock(&nl);
}

int main(void)
{
  omp_set_dynamic(0);
  omp_init_nest_lock(&nl);
  for (int rep = 0; rep < 30; rep++) {
    int depth4 = -1, depth5 = -1, other[T], fresh1[T], fresh2[T], team = 0;
    for (int t = 0; t < T; t++)
      other[t] = fresh1[t] = fresh2[t] = -1;
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      team++;
      if (t == 0) {
        omp_set_nest_lock(&nl);
        omp_set_nest_lock(&nl);
        omp_set_nest_lock(&nl);
        depth4 = omp_test_nest_lock(&nl);
        depth5 = omp_test_nest_lock(&nl);
      }
#pragma omp barrier
      if (t != 0)
        other[t] = omp_test_nest_lock(&nl);
#pragma omp barrier
      if (t == 0)
        for (int i = 0; i < 5; i++)
          omp_unset_nest_lock(&nl);
#pragma omp barrier
      for (int r = 0; r < T; r++) {
        if (t == r) {
          fresh1[t] = omp_test_nest_lock(&nl);
          fresh2[t] = omp_test_nest_lock(&nl);
          omp_set_nest_lock(&nl); /* depth 3 */
          for (int i = 0; i < 3; i++)
            omp_unset_nest_lock(&nl);
        }
#pragma omp barrier
      }
    }
    check(T, team, "rep %d: team size", rep);
    check(4, depth4, "rep %d: omp_test_nest_lock after 3 sets", rep);
    check(5, depth5, "rep %d: second omp_test_nest_lock", rep);
    for (int t = 1; t < T; t++)
      check(0, other[t], "rep %d: omp_test_nest_lock by non-owner thread %d", rep, t);
    for (int t = 0; t < T; t++) {
      check(1, fresh1[t], "rep %d: thread %d first omp_test_nest_lock on a free lock", rep, t);
      check(2, fresh2[t], "rep %d: thread %d second omp_test_nest_lock", rep, t);
    }
  }
#pragma omp parallel num_threads(4)
  {
    for (int i = 0; i < 500; i++)
      rec(i % 5);
  }
  long exp = 0;
  for (int i = 0; i < 500; i++)
    exp += i % 5 + 1;
  check(4 * exp, counter, "counter updated under recursive nest locks");
  check(0, overlaps, "overlapping holders of the nest lock");
  omp_destroy_nest_lock(&nl);
  return failures != 0;
}
