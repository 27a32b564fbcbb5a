/* Checks critical with hint clauses (contended, uncontended, speculative, nonspeculative): each named, hinted critical still gives mutual exclusion with no lost updates. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define PER 2000

static long c1, c2, c3, c4;
static int occ, overlaps;

static void body(long *c)
{
  if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
    overlaps++;
  *c = *c + 1;
  __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
}

int main(void)
{
  omp_set_dynamic(0);
#pragma omp parallel num_threads(T)
  {
    for (int i = 0; i < PER; i++) {
      /* the same name everywhere, so the occupancy check covers all four */
#pragma omp critical(hinted) hint(omp_sync_hint_contended)
      body(&c1);
#pragma omp critical(hinted) hint(omp_sync_hint_uncontended)
      body(&c2);
#pragma omp critical(hinted) hint(omp_sync_hint_speculative)
      body(&c3);
#pragma omp critical(hinted) hint(omp_sync_hint_nonspeculative | omp_sync_hint_contended)
      body(&c4);
    }
  }
  check((long long)T * PER, c1, "critical hint(contended) counter");
  check((long long)T * PER, c2, "critical hint(uncontended) counter");
  check((long long)T * PER, c3, "critical hint(speculative) counter");
  check((long long)T * PER, c4, "critical hint(nonspeculative|contended) counter");
  check(0, overlaps, "times two threads were inside critical(hinted) together");
  return failures != 0;
}
