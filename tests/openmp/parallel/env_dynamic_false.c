/* Checks OMP_DYNAMIC=false with OMP_NUM_THREADS=3 (see .env): omp_get_dynamic() is false and regions get exactly the requested (or default 3) threads. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

/* Reports a mismatch as "FAIL <file>: <what> expected <x> got <y>". */
__attribute__((format(printf, 3, 4), unused)) static void check(long long expected, long long got,
                                                                const char *what, ...)
{
  if (expected == got)
    return;
  if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) < 20) {
    char buf[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(buf, sizeof buf, what, ap);
    va_end(ap);
    fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", __FILE_NAME__, buf, expected, got);
  }
}
#include <string.h>

/* The sidecar .env file sets these; a mismatch means the harness did not apply it. */
static void require_env(const char *name, const char *want)
{
  const char *v = getenv(name);
  if (!v || strcmp(v, want) != 0) {
    fprintf(stderr, "FAIL %s: environment %s expected %s got %s (sidecar .env not applied?)\n", __FILE_NAME__, name,
            want, v ? v : "(unset)");
    failures++;
  }
}

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
