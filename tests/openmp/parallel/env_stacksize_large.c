/* Checks OMP_STACKSIZE=32M (see .env), larger than the usual 8 MiB default: runtime-created threads report >= 32 MiB of stack and survive a ~20 MiB deep recursion that a default-sized stack could not hold. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#include <pthread.h>

#define DEPTH 5000 /* frames of a bit over 4 KiB: about 20 MiB */

__attribute__((noinline)) static long deep(int n)
{
  volatile char buf[4096];
  buf[0] = (char)n;
  buf[4095] = (char)(n >> 2);
  if (n == 0)
    return 0;
  long r = deep(n - 1);
  return r + n + buf[0] - (char)n + buf[4095] - (char)(n >> 2);
}

int main(void)
{
  require_env("OMP_STACKSIZE", "32M");
  omp_set_dynamic(0);
  long res[3] = {0, 0, 0};
  size_t sizes[3] = {0, 0, 0};
#pragma omp parallel num_threads(3)
  {
    int t = omp_get_thread_num();
    if (t > 0 && t < 3) {
      pthread_attr_t at;
      size_t sz = 0;
      if (pthread_getattr_np(pthread_self(), &at) == 0) {
        pthread_attr_getstacksize(&at, &sz);
        pthread_attr_destroy(&at);
      }
      sizes[t] = sz;
      if (sz >= 32u << 20) /* without the stack this would crash rather than fail cleanly */
        res[t] = deep(DEPTH);
    }
  }
  for (int t = 1; t < 3; t++) {
    check(1, sizes[t] >= 32u << 20, "thread %d stack size >= 32 MiB (got %zu)", t, sizes[t]);
    check((long long)DEPTH * (DEPTH + 1) / 2, res[t], "thread %d deep recursion result", t);
  }
  return failures != 0;
}
