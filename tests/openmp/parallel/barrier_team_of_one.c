/* Checks synchronisation constructs in teams of one (num_threads(1), if(false), an inactive nested region, and orphaned in sequential code): barrier, single (with copyprivate), critical, master and masked all complete without waiting for anyone. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

static int body(void)
{
  int r = 0, cp = -1;
#pragma omp barrier
#pragma omp single copyprivate(cp)
  cp = 7;
  r += cp == 7;
#pragma omp critical
  r++;
#pragma omp master
  r++;
#pragma omp masked filter(0)
  r++;
#pragma omp masked filter(1)
  r += 100; /* no thread 1 in a team of one */
#pragma omp barrier
  r += omp_get_num_threads() == 1;
  return r;
}

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(1);
  for (int rep = 0; rep < 10; rep++) {
    int a = -1, b = -1, c[2] = {-1, -1}, d;
    int no = rep < 0;
#pragma omp parallel num_threads(1)
    a = body();
#pragma omp parallel if (no) num_threads(4)
    b = body();
#pragma omp parallel num_threads(2)
    {
      int t = omp_get_thread_num() & 1;
#pragma omp parallel num_threads(3)
      c[t] = body();
    }
    d = body();
    check(5, a, "rep %d: num_threads(1) region", rep);
    check(5, b, "rep %d: if(false) region", rep);
    check(5, c[0], "rep %d: inactive nested region under thread 0", rep);
    check(5, c[1], "rep %d: inactive nested region under thread 1", rep);
    check(5, d, "rep %d: orphaned in sequential code", rep);
  }
  return failures != 0;
}
