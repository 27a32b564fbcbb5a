/* Checks omp_get_max_threads() against OMP_NUM_THREADS when it is a plain number, and that a region with no num_threads clause (dyn-var false) gets exactly omp_get_max_threads() threads; also the sequential-part values of omp_get_num_threads/omp_get_thread_num. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <string.h>

int main(void)
{
  const char *env = getenv("OMP_NUM_THREADS");
  int maxt = omp_get_max_threads();
  check(1, maxt >= 1, "omp_get_max_threads() >= 1 (value %d)", maxt);
  if (env && *env && strspn(env, "0123456789") == strlen(env) && atoi(env) > 0)
    check(atoi(env), maxt, "omp_get_max_threads() with OMP_NUM_THREADS=%s", env);
  check(1, omp_get_num_threads(), "omp_get_num_threads() in sequential part");
  check(0, omp_get_thread_num(), "omp_get_thread_num() in sequential part");
  omp_set_dynamic(0);
  int lim = omp_get_thread_limit();
  int expect = maxt < lim ? maxt : lim;
  if (expect > 64)
    return failures != 0; /* a huge default: nothing more to check cheaply */
  for (int rep = 0; rep < 30; rep++) {
    int cnt = 0;
    unsigned long long mask = 0;
    int nth_bad = 0;
#pragma omp parallel
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      cnt++;
#pragma omp atomic
      mask |= 1ULL << (t & 63);
      if (omp_get_num_threads() != expect) {
#pragma omp atomic
        nth_bad++;
      }
    }
    check(expect, cnt, "rep %d: team size of a region without num_threads", rep);
    check((long long)((expect == 64) ? ~0ULL : ((1ULL << expect) - 1)), (long long)mask,
          "rep %d: thread id mask", rep);
    check(0, nth_bad, "rep %d: threads whose omp_get_num_threads() differed", rep);
  }
  check(maxt, omp_get_max_threads(), "omp_get_max_threads() unchanged by regions");
  return failures != 0;
}
