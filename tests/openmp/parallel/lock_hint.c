/* Checks omp_init_lock_with_hint / omp_init_nest_lock_with_hint (OpenMP 4.5/5.0) for each valid hint: the locks give mutual exclusion and nest depths. GCC 12's libgomp does not export these two, so they are weak references: where the runtime lacks them the program notes it and uses omp_init_lock/omp_init_nest_lock. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#pragma weak omp_init_lock_with_hint
#pragma weak omp_init_nest_lock_with_hint

#define T 4
#define PER 1000

static void init_lock(omp_lock_t *l, omp_sync_hint_t h)
{
  if (omp_init_lock_with_hint)
    omp_init_lock_with_hint(l, h);
  else
    omp_init_lock(l);
}

static void init_nest_lock(omp_nest_lock_t *l, omp_sync_hint_t h)
{
  if (omp_init_nest_lock_with_hint)
    omp_init_nest_lock_with_hint(l, h);
  else
    omp_init_nest_lock(l);
}

int main(void)
{
  omp_set_dynamic(0);
  if (!omp_init_lock_with_hint || !omp_init_nest_lock_with_hint)
    printf("note: runtime lacks omp_init_lock_with_hint/omp_init_nest_lock_with_hint; using plain init\n");
  const omp_sync_hint_t hints[] = {omp_sync_hint_none,
                                   omp_sync_hint_uncontended,
                                   omp_sync_hint_contended,
                                   omp_sync_hint_nonspeculative,
                                   omp_sync_hint_speculative,
                                   omp_sync_hint_contended | omp_sync_hint_speculative,
                                   omp_sync_hint_uncontended | omp_sync_hint_nonspeculative};
  const int nh = (int)(sizeof hints / sizeof hints[0]);
  for (int h = 0; h < nh; h++) {
    omp_lock_t l;
    omp_nest_lock_t nl;
    init_lock(&l, hints[h]);
    init_nest_lock(&nl, hints[h]);
    long c1 = 0, c2 = 0;
    int occ = 0, overlaps = 0, depth_bad = 0;
#pragma omp parallel num_threads(T) shared(c1, c2, occ, overlaps, depth_bad)
    {
      for (int i = 0; i < PER; i++) {
        omp_set_lock(&l);
        if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
          overlaps++;
        c1++;
        __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
        omp_unset_lock(&l);
        omp_set_nest_lock(&nl);
        if (omp_test_nest_lock(&nl) != 2)
          depth_bad++;
        c2++;
        omp_unset_nest_lock(&nl);
        omp_unset_nest_lock(&nl);
      }
    }
    check((long long)T * PER, c1, "hint %d: lock counter", (int)hints[h]);
    check((long long)T * PER, c2, "hint %d: nest lock counter", (int)hints[h]);
    check(0, overlaps, "hint %d: overlapping lock holders", (int)hints[h]);
    check(0, depth_bad, "hint %d: wrong nest depth from omp_test_nest_lock", (int)hints[h]);
    omp_destroy_lock(&l);
    omp_destroy_nest_lock(&nl);
  }
  return failures != 0;
}
