// Checks 10000-deep recursion of tasks that are included (final) and undeferred (if(0)): every level runs, in order, before its parent continues; orphaned and in parallel.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_final_deep.c"

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

#define DEPTH 10000

static int reached_final, reached_if0;
static int order_errors;

static void rec_final(int d)
{
  if (!omp_in_final())
    __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
  if (d == DEPTH) {
    reached_final = d;
    return;
  }
#pragma omp task firstprivate(d)
  rec_final(d + 1);
  /* the included child (and its whole subtree) has finished */
  if (reached_final != DEPTH)
    __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
}

static void rec_if0(int d)
{
  if (d == DEPTH) {
    reached_if0 = d;
    return;
  }
#pragma omp task if (0) firstprivate(d)
  rec_if0(d + 1);
  if (reached_if0 != DEPTH)
    __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
}

static void run(const char *where)
{
  reached_final = reached_if0 = 0;
  order_errors = 0;
#pragma omp task final(1) /* the final task itself may be deferred; its descendants are included */
  rec_final(1);
#pragma omp taskwait
  EXPECT(DEPTH, reached_final, "%s: depth reached by final chain before continuing", where);
#pragma omp task if (0) /* undeferred: finished when the construct completes */
  rec_if0(1);
  EXPECT(DEPTH, reached_if0, "%s: depth reached by if(0) chain before continuing", where);
  EXPECT(0, order_errors, "%s: levels not in final or finishing out of order", where);
}

int main(void)
{
  run("orphaned");
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    run("in parallel");
#pragma omp taskwait
  }
  return failures != 0;
}
