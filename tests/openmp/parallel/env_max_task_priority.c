/* Checks OMP_MAX_TASK_PRIORITY=10 (see .env): omp_get_max_task_priority() is 10 everywhere and tasks with priorities 0..15 (above the maximum too) each run exactly once. */
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
#define NT 160

static int ran[NT];

int main(void)
{
  require_env("OMP_MAX_TASK_PRIORITY", "10");
  check(10, omp_get_max_task_priority(), "omp_get_max_task_priority()");
  int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
  {
    bad += omp_get_max_task_priority() != 10;
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task priority(i % 16) firstprivate(i)
      {
#pragma omp atomic
        ran[i]++;
      }
    }
  }
  check(0, bad, "threads with a different omp_get_max_task_priority()");
  for (int i = 0; i < NT; i++)
    check(1, ran[i], "task %d (priority %d) executions", i, i % 16);
  return failures != 0;
}
