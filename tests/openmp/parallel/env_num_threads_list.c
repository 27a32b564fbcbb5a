/* Checks OMP_NUM_THREADS=3,2 with OMP_MAX_ACTIVE_LEVELS=2 (see .env): 3 threads at level 1, omp_get_max_threads() is 2 inside them, each nested region has 2 threads, and the last list element persists at deeper levels. */
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
  require_env("OMP_NUM_THREADS", "3,2");
  omp_set_dynamic(0);
  check(3, omp_get_max_threads(), "sequential omp_get_max_threads()");
  check(2, omp_get_max_active_levels(), "omp_get_max_active_levels()");
  for (int rep = 0; rep < 30; rep++) {
    int outer = 0, inner_max_bad = 0, inner_cnt[3] = {0, 0, 0}, deep_max_bad = 0, bad = 0;
#pragma omp parallel
    {
      int a = omp_get_thread_num();
#pragma omp atomic
      outer++;
      if (omp_get_max_threads() != 2) {
#pragma omp atomic
        inner_max_bad++;
      }
#pragma omp parallel
      {
        if (a < 0 || a > 2) {
#pragma omp atomic
          bad++;
        } else {
#pragma omp atomic
          inner_cnt[a]++;
        }
        if (omp_get_max_threads() != 2) {
#pragma omp atomic
          deep_max_bad++;
        }
      }
    }
    check(3, outer, "rep %d: level-1 team size", rep);
    check(0, inner_max_bad, "rep %d: level-1 threads with omp_get_max_threads() != 2", rep);
    check(0, bad, "rep %d: out-of-range outer ids", rep);
    for (int a = 0; a < 3; a++)
      check(2, inner_cnt[a], "rep %d: nested team size under thread %d", rep, a);
    check(0, deep_max_bad, "rep %d: level-2 threads with omp_get_max_threads() != 2", rep);
  }
  return failures != 0;
}
