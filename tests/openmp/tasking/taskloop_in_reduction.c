// Checks taskloop in_reduction inside a taskgroup task_reduction (mixed with plain in_reduction tasks), a taskloop reduction whose body tasks use in_reduction, and nogroup taskloop in_reduction.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_in_reduction.c"

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

int main(void)
{
  long x = 0, y = 0, z = 0;
#pragma omp parallel shared(x, y, z)
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+ : x)
    {
#pragma omp task in_reduction(+ : x)
      x += 1000000;
#pragma omp taskloop in_reduction(+ : x) grainsize(10)
      for (int i = 0; i < 1000; i++)
        x += i;
#pragma omp taskloop in_reduction(+ : x) num_tasks(3) nogroup
      for (int i = 0; i < 10; i++)
        x += 1;
    }
    /* taskloop reduction; tasks created in its body participate through in_reduction */
#pragma omp taskloop reduction(+ : y) num_tasks(4)
    for (int i = 0; i < 40; i++) {
      y += 1;
#pragma omp task in_reduction(+ : y) firstprivate(i)
      y += i;
    }
    /* taskloop in_reduction from inside a participating task's own taskgroup */
#pragma omp taskgroup task_reduction(+ : z)
    {
#pragma omp task in_reduction(+ : z)
      {
        z += 5;
#pragma omp taskloop in_reduction(+ : z) grainsize(1)
        for (int i = 0; i < 8; i++)
          z += 100;
      }
    }
  }
  EXPECT(1000000 + 499500 + 10, x, "taskloop in_reduction inside taskgroup");
  EXPECT(40 + 780, y, "taskloop reduction with in_reduction child tasks");
  EXPECT(805, z, "taskloop in_reduction inside a participating task");
  return failures != 0;
}
