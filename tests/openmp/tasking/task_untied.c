// Checks untied tasks (with nested untied children, taskwait and taskyield scheduling points) compute a correct tree sum and all run exactly once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_untied.c"

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

#define N 4096

static long tree_sum(const int *a, int lo, int hi)
{
  if (hi - lo <= 64) {
    long s = 0;
    for (int i = lo; i < hi; i++)
      s += a[i];
    return s;
  }
  long l = 0, r = 0;
  int mid = lo + (hi - lo) / 2;
#pragma omp task untied shared(l)
  l = tree_sum(a, lo, mid);
#pragma omp task untied shared(r)
  r = tree_sum(a, mid, hi);
#pragma omp taskyield
#pragma omp taskwait
  return l + r;
}

int main(void)
{
  static int a[N];
  static int ran[N];
  long expect = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7919) % 1000 - 300;
    expect += a[i];
  }
  long got = 0;
#pragma omp parallel shared(got)
#pragma omp single
  {
#pragma omp task untied shared(got)
    got = tree_sum(a, 0, N);
    for (int i = 0; i < N; i++) {
#pragma omp task untied firstprivate(i) shared(ran)
      {
        __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
        if (i % 64 == 0) {
#pragma omp taskyield
        }
        __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
      }
    }
  }
  EXPECT(expect, got, "untied tree sum");
  for (int i = 0; i < N; i++)
    if (ran[i] != 2) {
      EXPECT(2, ran[i], "untied task %d step count", i);
      break;
    }
  return failures != 0;
}
