/* Checks OMP_STACKSIZE=4M (see .env): threads created by the runtime report a stack of at least 4 MiB (pthread_getattr_np) and can run a ~3 MiB deep recursion. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#include <pthread.h>

#define DEPTH 3000 /* frames of a bit over 1 KiB: about 3 MiB */

__attribute__((noinline)) static long deep(int n)
{
  volatile char buf[1024];
  buf[0] = (char)n;
  buf[1023] = (char)(n >> 3);
  if (n == 0)
    return 0;
  long r = deep(n - 1);
  return r + n + buf[0] - (char)n + buf[1023] - (char)(n >> 3);
}

int main(void)
{
  require_env("OMP_STACKSIZE", "4M");
  omp_set_dynamic(0);
  long res[3] = {0, 0, 0};
  size_t sizes[3] = {0, 0, 0};
#pragma omp parallel num_threads(3)
  {
    int t = omp_get_thread_num();
    if (t > 0 && t < 3) { /* thread 0 is the initial thread: its stack is not the runtime's */
      pthread_attr_t at;
      size_t sz = 0;
      if (pthread_getattr_np(pthread_self(), &at) == 0) {
        pthread_attr_getstacksize(&at, &sz);
        pthread_attr_destroy(&at);
      }
      sizes[t] = sz;
      if (sz >= 4u << 20) /* without the stack this would crash rather than fail cleanly */
        res[t] = deep(DEPTH);
    }
  }
  for (int t = 1; t < 3; t++) {
    check(1, sizes[t] >= 4u << 20, "thread %d stack size >= 4 MiB (got %zu)", t, sizes[t]);
    check((long long)DEPTH * (DEPTH + 1) / 2, res[t], "thread %d deep recursion result", t);
  }
  return failures != 0;
}
