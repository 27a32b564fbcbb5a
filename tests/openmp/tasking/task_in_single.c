// Checks tasks created in single (with and without nowait), master and sections: the barrier that follows completes all of them, whichever thread executes them.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_in_single.c"

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

#define N 3000

int main(void)
{
  static int a[N], b[N], c[N], d[2];
  int bad = 0;
#pragma omp parallel shared(a, b, c, d, bad)
  {
#pragma omp single
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      a[i] += i;
    }
    /* implicit barrier at the end of single */
    if (a[N - 1] != N - 1 || a[0] != 0) {
#pragma omp atomic
      bad++;
    }
#pragma omp single nowait
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      b[i] = 2 * i;
    }
#pragma omp master
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      c[i] = 3 * i;
    }
#pragma omp barrier
    if (b[N - 1] != 2 * (N - 1) || c[N - 1] != 3 * (N - 1)) {
#pragma omp atomic
      bad++;
    }
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp task
        d[0] = 1;
      }
#pragma omp section
      {
#pragma omp task
        d[1] = 2;
      }
    }
    if (d[0] != 1 || d[1] != 2) {
#pragma omp atomic
      bad++;
    }
  }
  long sa = 0, sb = 0, sc = 0;
  for (int i = 0; i < N; i++) {
    sa += a[i];
    sb += b[i];
    sc += c[i];
  }
  EXPECT((long)N * (N - 1) / 2, sa, "sum a (single)");
  EXPECT((long)N * (N - 1), sb, "sum b (single nowait)");
  EXPECT(3L * N * (N - 1) / 2, sc, "sum c (master)");
  EXPECT(0, bad, "threads that saw incomplete tasks after a barrier");
  return failures != 0;
}
