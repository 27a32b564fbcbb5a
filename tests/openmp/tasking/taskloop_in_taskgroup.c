// Checks taskloops inside an explicit taskgroup (with and without nogroup, mixed with sibling tasks and tasks spawned from the loop body): the taskgroup end waits for everything.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_in_taskgroup.c"

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

#define N 800

int main(void)
{
  static int a[N], b[N], c[N];
  int extra = 0, bad = 0;
#pragma omp parallel shared(a, b, c, extra, bad)
#pragma omp single
  for (int r = 0; r < 5; r++) {
#pragma omp taskgroup
    {
#pragma omp task shared(extra)
      {
        spin(5000);
#pragma omp atomic
        extra++;
      }
#pragma omp taskloop nogroup grainsize(20)
      for (int i = 0; i < N; i++) {
        a[i]++;
#pragma omp task firstprivate(i)
        b[i]++;
      }
#pragma omp taskloop num_tasks(7)
      for (int i = 0; i < N; i++)
        c[i]++;
      /* the second taskloop's own taskgroup completed its tasks */
      for (int i = 0; i < N; i++)
        if (c[i] != r + 1) {
          bad++;
          break;
        }
    }
    for (int i = 0; i < N; i++)
      if (a[i] != r + 1 || b[i] != r + 1) {
        bad++;
        break;
      }
    EXPECT(r + 1, extra, "round %d: sibling task done at taskgroup end", r);
  }
  EXPECT(0, bad, "rounds with incomplete taskloop work");
  return failures != 0;
}
