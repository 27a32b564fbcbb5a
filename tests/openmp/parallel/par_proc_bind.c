/* Checks that every proc_bind policy (master, primary, close, spread) is accepted on parallel and still yields a correct team of 3 (each id once), and that omp_get_proc_bind() returns a valid policy value inside and outside. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

struct res {
  int cnt, mask, bad_bind;
};

static void record(struct res *r)
{
#pragma omp atomic
  r->cnt++;
#pragma omp atomic
  r->mask |= 1 << (omp_get_thread_num() & 15);
  omp_proc_bind_t b = omp_get_proc_bind();
  if (b < omp_proc_bind_false || b > omp_proc_bind_spread) {
#pragma omp atomic
    r->bad_bind++;
  }
}

static void verify(const struct res *r, const char *what, int rep)
{
  check(3, r->cnt, "%s rep %d: team size", what, rep);
  check(7, r->mask, "%s rep %d: thread id mask", what, rep);
  check(0, r->bad_bind, "%s rep %d: invalid omp_get_proc_bind() values", what, rep);
}

int main(void)
{
  omp_set_dynamic(0);
  omp_proc_bind_t b = omp_get_proc_bind();
  check(1, b >= omp_proc_bind_false && b <= omp_proc_bind_spread, "omp_get_proc_bind() outside is valid (%d)", (int)b);
  for (int rep = 0; rep < 50; rep++) {
    struct res m = {0, 0, 0}, p = {0, 0, 0}, c = {0, 0, 0}, s = {0, 0, 0};
#pragma omp parallel num_threads(3) proc_bind(master)
    record(&m);
#pragma omp parallel num_threads(3) proc_bind(primary)
    record(&p);
#pragma omp parallel num_threads(3) proc_bind(close)
    record(&c);
#pragma omp parallel num_threads(3) proc_bind(spread)
    record(&s);
    verify(&m, "proc_bind(master)", rep);
    verify(&p, "proc_bind(primary)", rep);
    verify(&c, "proc_bind(close)", rep);
    verify(&s, "proc_bind(spread)", rep);
  }
  return failures != 0;
}
