// Checks in_reduction tasks that also carry depend clauses (a dependence chain of reducing tasks plus independent reducers), with taskloop in_reduction and a taskwait depend inside one taskgroup task_reduction.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "combo_reduction_depend.c"

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
  long sum = 0;
  int order_bad = 0;
#pragma omp parallel shared(sum, order_bad)
#pragma omp single
  for (int r = 0; r < 20; r++) {
    int stage = 0;
    long before = sum;
#pragma omp taskgroup task_reduction(+ : sum)
    {
      for (int k = 0; k < 30; k++) {
        /* chain: each link must see the previous link's stage */
#pragma omp task in_reduction(+ : sum) depend(inout : stage) shared(stage, order_bad) firstprivate(k)
        {
          if (stage != k) {
#pragma omp atomic
            order_bad++;
          }
          stage = k + 1;
          sum += k;
        }
#pragma omp task in_reduction(+ : sum) firstprivate(k)
        sum += 1000;
      }
#pragma omp taskloop in_reduction(+ : sum) grainsize(5)
      for (int i = 0; i < 50; i++)
        sum += 2;
#pragma omp taskwait depend(in : stage)
      if (stage != 30) {
#pragma omp atomic
        order_bad += 100;
      }
    }
    EXPECT(before + 435 + 30000 + 100, sum, "round %d: reduction total", r);
  }
  EXPECT(0, order_bad, "chain tasks out of order or taskwait depend returning early");
  return failures != 0;
}
