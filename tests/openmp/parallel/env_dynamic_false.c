/* Checks OMP_DYNAMIC=false with OMP_NUM_THREADS=3 (see .env): omp_get_dynamic() is false and regions get exactly the requested (or default 3) threads. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_DYNAMIC", "false");
  require_env("OMP_NUM_THREADS", "3");
  check(0, omp_get_dynamic(), "omp_get_dynamic()");
  check(3, omp_get_max_threads(), "omp_get_max_threads()");
  for (int rep = 0; rep < 40; rep++) {
    int k = 1 + rep % 6;
    int cnt = 0, mask = 0, dcnt = 0;
#pragma omp parallel num_threads(k)
    {
#pragma omp atomic
      cnt++;
#pragma omp atomic
      mask |= 1 << (omp_get_thread_num() & 15);
    }
#pragma omp parallel
    {
#pragma omp atomic
      dcnt++;
    }
    check(k, cnt, "rep %d: num_threads(%d) team size", rep, k);
    check((1 << k) - 1, mask, "rep %d: thread id mask", rep);
    check(3, dcnt, "rep %d: default team size", rep);
  }
  return failures != 0;
}
