// Checks tasks combining many clauses at once (if, final, untied, mergeable, priority, depend, firstprivate/private/shared, default) so every GOMP_task flag bit combination used here still yields correct results and ordering.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_all_clauses.c"

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

static volatile int one = 1, zero = 0;

int main(void)
{
  int x = 0, seen[8];
  long acc = 0;
  memset(seen, -1, sizeof seen);
#pragma omp parallel shared(x, seen, acc)
#pragma omp single
  for (int r = 0; r < 50; r++) {
    int fp = r, pv = -5;
#pragma omp task if (one) final(zero) untied priority(0) depend(out : x) firstprivate(fp) private(pv) shared(x)
    {
      pv = fp * 2;
      x = pv;
    }
#pragma omp task if (one) final(one) mergeable depend(in : x) default(none) shared(x, seen)
    {
      seen[0] = x;
      seen[1] = omp_in_final();
    }
#pragma omp task if (zero) final(one) untied depend(inout : x) shared(x, seen)
    {
      seen[2] = x;
      x += 1;
    }
    /* undeferred: already done here */
    EXPECT(2 * r, seen[2], "round %d: if(0) final untied depend task ran after the writer", r);
#pragma omp task if (one) untied mergeable priority(0) depend(in : x) shared(x, acc)
    {
#pragma omp atomic
      acc += x;
    }
#pragma omp taskwait
    EXPECT(2 * r, seen[0], "round %d: final mergeable reader", r);
    EXPECT(1, seen[1] != 0, "round %d: omp_in_final() in final(one) task", r);
    EXPECT(-5, pv, "round %d: private original untouched", r);
  }
  EXPECT(2L * 49 * 50 / 2 + 50, acc, "sum seen by the last readers");
  return failures != 0;
}
