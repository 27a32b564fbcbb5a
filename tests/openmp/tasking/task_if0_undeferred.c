// Checks task if(0): the undeferred task's body completes before the encountering task continues (orphaned, in parallel, nested, with pending deferred siblings, runtime-false condition).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_if0_undeferred.c"

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

static volatile int zero = 0; /* runtime false for if() */

int main(void)
{
  int done = 0;
#pragma omp task if (0) shared(done)
  done = 1;
  EXPECT(1, done, "orphaned if(0) task finished before encountering task continued");

  int per_thread_ok[64] = {0};
#pragma omp parallel shared(per_thread_ok)
  {
    int me = omp_get_thread_num() % 64;
    int local = 0;
    /* A deferred sibling that is still pending must not delay or replace the if(0) task. */
    int pending = 0;
#pragma omp task shared(pending)
    {
      spin(20000);
      pending = 1;
    }
#pragma omp task if (0) shared(local)
    {
      local = 10;
      int inner = 0;
#pragma omp task if (zero) shared(inner)
      inner = 5;
      EXPECT(5, inner, "nested if(0) task finished before its parent continued");
      local += inner;
    }
    EXPECT(15, local, "if(0) task with nested if(0) child finished before continuing");

    /* 1000 consecutive undeferred tasks, each visible immediately. */
    int counter = 0;
    for (int i = 0; i < 1000; i++) {
#pragma omp task if (zero) shared(counter)
      counter++;
      if (counter != i + 1) {
        EXPECT(i + 1, counter, "counter right after undeferred task %d", i);
        break;
      }
    }
    /* firstprivate capture still happens at creation time. */
    int v = 7, seen = 0;
#pragma omp task if (0) firstprivate(v) shared(seen)
    {
      seen = v;
      v = 100; /* modifies the task's copy only */
    }
    EXPECT(7, seen, "firstprivate value inside if(0) task");
    EXPECT(7, v, "original after if(0) task modified its firstprivate copy");
#pragma omp taskwait
    EXPECT(1, pending, "deferred sibling done after taskwait");
    per_thread_ok[me] = 1;
  }
  EXPECT(1, per_thread_ok[0], "master thread ran the region");
  return failures != 0;
}
