/* Checks OMP_DYNAMIC=true (see .env): omp_get_dynamic() is true, inherited by region threads, and num_threads(k) teams have between 1 and k threads with ids 0..n-1. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_DYNAMIC", "true");
  check(1, omp_get_dynamic() != 0, "omp_get_dynamic()");
  for (int rep = 0; rep < 40; rep++) {
    int k = 1 + rep % 6;
    int cnt = 0, mask = 0, nth = -1, dyn_bad = 0;
#pragma omp parallel num_threads(k)
    {
#pragma omp atomic
      cnt++;
#pragma omp atomic
      mask |= 1 << (omp_get_thread_num() & 15);
      if (omp_get_thread_num() == 0)
        nth = omp_get_num_threads();
      if (!omp_get_dynamic()) {
#pragma omp atomic
        dyn_bad++;
      }
    }
    check(1, cnt >= 1 && cnt <= k, "rep %d: team size in 1..%d (got %d)", rep, k, cnt);
    check(cnt, nth, "rep %d: omp_get_num_threads() vs threads that ran", rep);
    check((1 << cnt) - 1, mask, "rep %d: thread ids are 0..n-1", rep);
    check(0, dyn_bad, "rep %d: threads where omp_get_dynamic() is false", rep);
  }
  return failures != 0;
}
