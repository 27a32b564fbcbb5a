/* Checks that with max-active-levels 1 a region nested in an inactive one (if(false) or num_threads(1)) is still the first active level: it gets its requested team, level 2 and active level 1. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

struct rec {
  int cnt, mask, lvl, alvl, ts1, ts2, anc1;
};

static void inner(struct rec *x)
{
#pragma omp parallel num_threads(3)
  {
#pragma omp atomic
    x->cnt++;
#pragma omp atomic
    x->mask |= 1 << (omp_get_thread_num() & 15);
    if (omp_get_thread_num() == 2) {
      x->lvl = omp_get_level();
      x->alvl = omp_get_active_level();
      x->ts1 = omp_get_team_size(1);
      x->ts2 = omp_get_team_size(2);
      x->anc1 = omp_get_ancestor_thread_num(1);
    }
  }
}

static void verify(struct rec *x, const char *what, int rep)
{
  check(3, x->cnt, "%s rep %d: inner team size", what, rep);
  check(7, x->mask, "%s rep %d: inner id mask", what, rep);
  check(2, x->lvl, "%s rep %d: omp_get_level()", what, rep);
  check(1, x->alvl, "%s rep %d: omp_get_active_level()", what, rep);
  check(1, x->ts1, "%s rep %d: omp_get_team_size(1)", what, rep);
  check(3, x->ts2, "%s rep %d: omp_get_team_size(2)", what, rep);
  check(0, x->anc1, "%s rep %d: omp_get_ancestor_thread_num(1)", what, rep);
}

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(1);
  for (int rep = 0; rep < 50; rep++) {
    struct rec a = {0, 0, -1, -1, -1, -1, -1}, b = {0, 0, -1, -1, -1, -1, -1};
    int no = rep < 0;
#pragma omp parallel if (no) num_threads(4)
    inner(&a);
#pragma omp parallel num_threads(1)
    inner(&b);
    verify(&a, "under if(false)", rep);
    verify(&b, "under num_threads(1)", rep);
  }
  return failures != 0;
}
