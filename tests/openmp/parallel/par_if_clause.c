/* Checks the if clause: if(false) gives an inactive region run by a team of 1 (level 1, active level 0, omp_in_parallel false), if(true) gives the requested team; both the plain and the if(parallel: ...) forms. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define REPS 300

struct obs {
  int count, mask, nth, level, alevel, inpar;
};

static void observe(struct obs *o)
{
  int t = omp_get_thread_num();
#pragma omp atomic
  o->count++;
#pragma omp atomic
  o->mask |= 1 << (t & 15);
  if (t == 0) {
    o->nth = omp_get_num_threads();
    o->level = omp_get_level();
    o->alevel = omp_get_active_level();
    o->inpar = omp_in_parallel();
  }
}

static void verify(const struct obs *o, int cond, int k, const char *form, int rep)
{
  int n = cond ? k : 1;
  check(n, o->count, "%s rep=%d cond=%d: threads that ran the region", form, rep, cond);
  check((1 << n) - 1, o->mask, "%s rep=%d cond=%d: mask of thread ids", form, rep, cond);
  check(n, o->nth, "%s rep=%d cond=%d: omp_get_num_threads()", form, rep, cond);
  check(1, o->level, "%s rep=%d cond=%d: omp_get_level()", form, rep, cond);
  check(cond ? 1 : 0, o->alevel, "%s rep=%d cond=%d: omp_get_active_level()", form, rep, cond);
  check(cond ? 1 : 0, o->inpar, "%s rep=%d cond=%d: omp_in_parallel()", form, rep, cond);
}

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < REPS; rep++) {
    int cond = (rep % 3) != 0;
    int k = 2 + rep % 3;
    struct obs a = {0, 0, -1, -1, -1, -1}, b = {0, 0, -1, -1, -1, -1};
#pragma omp parallel if (cond) num_threads(k)
    observe(&a);
    verify(&a, cond, k, "if(cond)", rep);
#pragma omp parallel num_threads(k) if (parallel : cond)
    observe(&b);
    verify(&b, cond, k, "if(parallel:cond)", rep);
  }
  return failures != 0;
}
