/* Checks OMP_THREAD_LIMIT=4 (see .env): omp_get_thread_limit() is 4; teams up to 4 are exact; requests above it never exceed 4 threads; two nested 2-thread teams under a 2-thread team (4 threads total) are exact. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_THREAD_LIMIT", "4");
  check(4, omp_get_thread_limit(), "omp_get_thread_limit()");
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  for (int rep = 0; rep < 10; rep++) {
    for (int k = 1; k <= 4; k++) {
      int cnt = 0;
#pragma omp parallel num_threads(k)
      {
#pragma omp atomic
        cnt++;
      }
      check(k, cnt, "rep %d: num_threads(%d) team size", rep, k);
    }
    omp_set_dynamic(1); /* with dyn-var true a too-large request is adjusted, not implementation defined */
    int big = 0, mask = 0;
#pragma omp parallel num_threads(8)
    {
#pragma omp atomic
      big++;
#pragma omp atomic
      mask |= 1 << (omp_get_thread_num() & 15);
    }
    omp_set_dynamic(0);
    check(1, big >= 1 && big <= 4, "rep %d: num_threads(8) under limit 4 gave %d threads", rep, big);
    check((1 << big) - 1, mask, "rep %d: thread id mask of the limited team", rep);
    int inner[2] = {0, 0}, outer = 0, limit_bad = 0;
#pragma omp parallel num_threads(2)
    {
      int a = omp_get_thread_num() & 1;
#pragma omp atomic
      outer++;
#pragma omp parallel num_threads(2)
      {
#pragma omp atomic
        inner[a]++;
        if (omp_get_thread_limit() != 4) {
#pragma omp atomic
          limit_bad++;
        }
      }
    }
    check(2, outer, "rep %d: outer team size", rep);
    check(2, inner[0], "rep %d: nested team size under thread 0", rep);
    check(2, inner[1], "rep %d: nested team size under thread 1", rep);
    check(0, limit_bad, "rep %d: nested threads seeing another thread limit", rep);
  }
  return failures != 0;
}
