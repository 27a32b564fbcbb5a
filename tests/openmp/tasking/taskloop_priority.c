// Checks taskloop priority(p) is accepted with the default max priority (omp_get_max_task_priority()==0 without OMP_MAX_TASK_PRIORITY) and with runtime values, and all iterations run once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_priority.c"

static int failures;

/* Print "FAIL <file>: <what> expected <x> got <y>" (first 10 only) and remember the failure. */
__attribute__((format(printf, 3, 4))) static void fail(long long exp, long long got, const char *fmt, ...)
{
  int n;
#pragma omp atomic capture
  n = failures++;
  if (n >= 10)
    return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", NAME, what, exp, got);
}

#define EXPECT(exp, got, ...)                                                                      \
  do {                                                                                             \
    long long e_ = (long long)(exp), g_ = (long long)(got);                                        \
    if (e_ != g_)                                                                                  \
      fail(e_, g_, __VA_ARGS__);                                                                   \
  } while (0)

/* Busy work to widen race windows; never used to decide pass/fail. */
static inline void spin(int n)
{
  for (volatile int i = 0; i < n; i++) {
  }
}

/* Global event counter: ordering checks compare ticks (end of A < start of B). */
static long seq_counter;
static inline long tick(void) { return __atomic_fetch_add(&seq_counter, 1, __ATOMIC_SEQ_CST); }

int main(int argc, char **argv)
{
  (void)argv;
  EXPECT(0, omp_get_max_task_priority(), "default omp_get_max_task_priority()");
  static int hit[2000];
  int p = 5 + argc;
#pragma omp parallel shared(hit) firstprivate(p)
#pragma omp single
  {
#pragma omp taskloop priority(0) grainsize(10)
    for (int i = 0; i < 500; i++)
      hit[i]++;
#pragma omp taskloop priority(p) num_tasks(13)
    for (int i = 500; i < 1000; i++)
      hit[i]++;
    for (int q = 0; q < 4; q++) {
#pragma omp taskloop priority(q) grainsize(25) nogroup firstprivate(q)
      for (int i = 1000 + q * 250; i < 1250 + q * 250; i++)
        hit[i]++;
    }
#pragma omp taskwait
  }
  int bad = 0;
  for (int i = 0; i < 2000; i++)
    bad += hit[i] != 1;
  EXPECT(0, bad, "iterations not run exactly once");
  return failures != 0;
}
