/* Checks omp_set_dynamic/omp_get_dynamic round trips, that dyn-var is inherited inside a region, and that with dyn-var true a num_threads(6) team has 1..6 threads with unique ids while with dyn-var false it has exactly 6. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

static void team(int dyn, int rep)
{
  int cnt = 0, mask = 0, nth = -1, inner_dyn_bad = 0;
#pragma omp parallel num_threads(6)
  {
#pragma omp atomic
    cnt++;
#pragma omp atomic
    mask |= 1 << (omp_get_thread_num() & 15);
    if (omp_get_thread_num() == 0)
      nth = omp_get_num_threads();
    if ((omp_get_dynamic() != 0) != dyn) {
#pragma omp atomic
      inner_dyn_bad++;
    }
  }
  check(0, inner_dyn_bad, "dyn=%d rep=%d: threads with a different omp_get_dynamic()", dyn, rep);
  check(cnt, nth, "dyn=%d rep=%d: omp_get_num_threads() vs threads that ran", dyn, rep);
  check((1 << cnt) - 1, mask, "dyn=%d rep=%d: thread ids are 0..n-1", dyn, rep);
  if (dyn)
    check(1, cnt >= 1 && cnt <= 6, "dyn=1 rep=%d: team size in 1..6 (got %d)", rep, cnt);
  else
    check(6, cnt, "dyn=0 rep=%d: team size", rep);
}

int main(void)
{
  for (int rep = 0; rep < 25; rep++) {
    omp_set_dynamic(1);
    check(1, omp_get_dynamic() != 0, "omp_get_dynamic() after omp_set_dynamic(1)");
    team(1, rep);
    omp_set_dynamic(0);
    check(0, omp_get_dynamic(), "omp_get_dynamic() after omp_set_dynamic(0)");
    team(0, rep);
  }
  return failures != 0;
}
