/* Checks OMP_SCHEDULE=monotonic:guided,5 (see .env): omp_get_schedule() reports guided with the monotonic modifier and chunk 5, and a schedule(runtime) loop covers every iteration once. */
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
#define N 1000

static int hits[N];

int main(void)
{
  require_env("OMP_SCHEDULE", "monotonic:guided,5");
  omp_sched_t k;
  int c = -1;
  omp_get_schedule(&k, &c);
  check(omp_sched_guided | omp_sched_monotonic, k, "schedule kind with modifier");
  check(5, c, "schedule chunk");
#pragma omp parallel for schedule(runtime) num_threads(3)
  for (int i = 0; i < N; i++)
    hits[i]++;
  for (int i = 0; i < N; i++)
    check(1, hits[i], "schedule(runtime): times iteration %d ran", i);
  return failures != 0;
}
