// Checks that an undeferred task (if(0)) with depend clauses waits for its predecessor sibling tasks before running, and the encountering task continues only after it.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_if0_depend.c"

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
  int x = 0, y = 0;
#pragma omp parallel shared(x, y)
#pragma omp single
  {
    for (int round = 0; round < 100; round++) {
      int seen = -1;
#pragma omp task depend(out : x) shared(x) firstprivate(round)
      {
        spin(3000);
        x = round + 1;
      }
#pragma omp task if (0) depend(in : x) shared(x, seen)
      seen = x;
      EXPECT(round + 1, seen, "if(0) reader saw writer's value in round %d", round);
    }
    /* Undeferred inout after several deferred readers: must wait for all of them (anti-dependence). */
    int reads[8];
    y = 42;
    for (int k = 0; k < 8; k++) {
#pragma omp task depend(in : y) shared(y, reads) firstprivate(k)
      {
        spin(2000 * (k + 1));
        reads[k] = y;
      }
    }
#pragma omp task if (0) depend(inout : y) shared(y)
    y = -1;
    for (int k = 0; k < 8; k++)
      EXPECT(42, reads[k], "reader %d finished before undeferred writer", k);
    EXPECT(-1, y, "undeferred writer ran before continuing");
#pragma omp taskwait
  }
  return failures != 0;
}
