// Checks priority(): omp_get_max_task_priority() reflects OMP_MAX_TASK_PRIORITY=10 (.env) and tasks with priorities 0..10 (with and without dependences) all run exactly once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_priority.c"

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

#define N 1100

int main(void)
{
  EXPECT(10, omp_get_max_task_priority(), "omp_get_max_task_priority()");
  static int ran[N];
  int chain = 0;
#pragma omp parallel shared(ran, chain)
  {
    EXPECT(10, omp_get_max_task_priority(), "omp_get_max_task_priority() in parallel");
#pragma omp single
    {
      for (int i = 0; i < N; i++) {
#pragma omp task priority(i % 11) firstprivate(i) shared(ran)
        {
          spin(100);
          __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
        }
      }
      /* priorities never break dependence order */
      for (int i = 0; i < 200; i++) {
#pragma omp task priority(10 - i % 11) depend(inout : chain) firstprivate(i) shared(chain)
        {
          EXPECT(i, chain, "chain value seen by priority task %d", i);
          chain = i + 1;
        }
      }
    }
  }
  for (int i = 0; i < N; i++)
    if (ran[i] != 1) {
      EXPECT(1, ran[i], "task %d ran count", i);
      break;
    }
  EXPECT(200, chain, "chain length");
  return failures != 0;
}
