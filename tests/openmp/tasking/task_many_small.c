// Checks 100000 tiny tasks (from one producer, and from all threads) all run exactly once and their contributions sum correctly.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_many_small.c"

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

#define N 100000

static unsigned char ran[N];

int main(void)
{
  long sum = 0;
#pragma omp parallel shared(sum)
  {
#pragma omp single
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      {
        ran[i]++;
#pragma omp atomic
        sum += i & 7;
      }
    }
    /* every thread produces a share of another 100000 */
    int nt = omp_get_num_threads(), me = omp_get_thread_num();
    for (int i = me; i < N; i += nt) {
#pragma omp task firstprivate(i)
      {
#pragma omp atomic
        ran[i]++;
      }
    }
  }
  long expect = 0;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    expect += i & 7;
    bad += ran[i] != 2;
  }
  EXPECT(expect, sum, "sum of task contributions");
  EXPECT(0, bad, "tasks run count != 2");
  return failures != 0;
}
