/* Checks an array of 16 locks used for bank-style transfers (two locks taken in index order) under contention: per-account balances match a sequential replay exactly and the total is conserved. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define A 16
#define T 4
#define PER 2000

static unsigned lcg(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

int main(void)
{
  omp_set_dynamic(0);
  omp_lock_t locks[A];
  long bal[A], expect[A];
  for (int a = 0; a < A; a++) {
    omp_init_lock(&locks[a]);
    bal[a] = expect[a] = 1000;
  }
  int team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    unsigned s = 12345u + 7919u * (unsigned)t;
    for (int i = 0; i < PER; i++) {
      int from = (int)(lcg(&s) % A), to = (int)(lcg(&s) % A);
      long amt = (long)(lcg(&s) % 50);
      if (from == to)
        continue;
      int lo = from < to ? from : to, hi = from < to ? to : from;
      omp_set_lock(&locks[lo]);
      omp_set_lock(&locks[hi]);
      bal[from] -= amt;
      bal[to] += amt;
      omp_unset_lock(&locks[hi]);
      omp_unset_lock(&locks[lo]);
    }
  }
  check(T, team, "team size");
  for (int t = 0; t < T; t++) {
    unsigned s = 12345u + 7919u * (unsigned)t;
    for (int i = 0; i < PER; i++) {
      int from = (int)(lcg(&s) % A), to = (int)(lcg(&s) % A);
      long amt = (long)(lcg(&s) % 50);
      if (from == to)
        continue;
      expect[from] -= amt;
      expect[to] += amt;
    }
  }
  long total = 0;
  for (int a = 0; a < A; a++) {
    check(expect[a], bal[a], "balance of account %d", a);
    total += bal[a];
    omp_destroy_lock(&locks[a]);
  }
  check(1000L * A, total, "total balance");
  return failures != 0;
}
