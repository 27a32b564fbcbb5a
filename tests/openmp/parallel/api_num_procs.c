/* Checks omp_get_num_procs(): positive, equal to the number of CPUs in the process affinity mask, and the same in every thread of a team. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
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

int main(void)
{
  int np = omp_get_num_procs();
  check(1, np > 0, "omp_get_num_procs() > 0 (got %d)", np);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    check(CPU_COUNT(&set), np, "omp_get_num_procs() vs CPUs in the affinity mask");
  int bad = 0;
#pragma omp parallel num_threads(4) reduction(+ : bad)
  bad += omp_get_num_procs() != np;
  check(0, bad, "threads with a different omp_get_num_procs()");
  return failures != 0;
}
