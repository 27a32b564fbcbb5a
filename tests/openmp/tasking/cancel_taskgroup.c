// Checks cancel taskgroup (OMP_CANCELLATION=true): code after cancel never runs, tasks that start after the cancelling task completed never get past a 'cancellation point taskgroup', the taskgroup still ends, and later taskgroups run normally.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_taskgroup.c"

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

#define ROUNDS 40
#define KIDS 20

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation() with OMP_CANCELLATION=true");
  int after_cancel = 0, passed = 0, full = 0, groups_done = 0;
#pragma omp parallel shared(after_cancel, passed, full, groups_done)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int tok = 0;
    (void)tok; /* dependence address only */
#pragma omp taskgroup
    {
      /* unrelated tasks created before the cancel: may run, be cut short, or be discarded */
      for (int k = 0; k < KIDS; k++) {
#pragma omp task
        {
          spin(500);
#pragma omp cancellation point taskgroup
          spin(500);
        }
      }
#pragma omp task depend(out : tok) shared(after_cancel)
      {
        spin(1000);
#pragma omp cancel taskgroup
#pragma omp atomic
        after_cancel++; /* unreachable when cancellation is enabled */
      }
      /* successors start only after the cancelling task completed, i.e. after activation */
      for (int k = 0; k < KIDS; k++) {
#pragma omp task depend(in : tok) shared(passed)
        {
#pragma omp cancellation point taskgroup
#pragma omp atomic
          passed++;
          /* a child created here would also belong to the cancelled taskgroup */
        }
      }
    }
    groups_done++;
    /* a fresh taskgroup is not cancelled */
#pragma omp taskgroup
    for (int k = 0; k < KIDS; k++) {
#pragma omp task shared(full)
      {
#pragma omp cancellation point taskgroup
#pragma omp atomic
        full++;
      }
    }
  }
  EXPECT(0, after_cancel, "statements executed after '#pragma omp cancel taskgroup'");
  EXPECT(0, passed, "tasks that got past a cancellation point after the taskgroup was cancelled");
  EXPECT(ROUNDS, groups_done, "cancelled taskgroups that completed");
  EXPECT(ROUNDS * KIDS, full, "tasks of the uncancelled taskgroups that ran to completion");
  return failures != 0;
}
