/* Checks omp_get_thread_limit(): equals OMP_THREAD_LIMIT when set, is >= 1 otherwise, is the same in every thread of a region, and a team of min(limit, 6) threads can be formed exactly. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  const char *env = getenv("OMP_THREAD_LIMIT");
  int lim = omp_get_thread_limit();
  if (env && atoi(env) > 0)
    check(atoi(env), lim, "omp_get_thread_limit() with OMP_THREAD_LIMIT=%s", env);
  check(1, lim >= 1, "omp_get_thread_limit() >= 1 (value %d)", lim);
  omp_set_dynamic(0);
  int k = lim < 6 ? lim : 6;
  for (int rep = 0; rep < 100; rep++) {
    int cnt = 0, mask = 0, bad = 0;
#pragma omp parallel num_threads(k)
    {
#pragma omp atomic
      cnt++;
#pragma omp atomic
      mask |= 1 << (omp_get_thread_num() & 15);
      if (omp_get_thread_limit() != lim) {
#pragma omp atomic
        bad++;
      }
    }
    check(k, cnt, "rep %d: team size with num_threads(%d)", rep, k);
    check((1 << k) - 1, mask, "rep %d: thread id mask", rep);
    check(0, bad, "rep %d: threads seeing a different thread limit", rep);
  }
  return failures != 0;
}
