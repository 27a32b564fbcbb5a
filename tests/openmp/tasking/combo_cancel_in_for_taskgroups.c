// Checks cancel taskgroup inside taskgroups opened by the iterations of a parallel for (OMP_CANCELLATION=true): only the cancelling iteration's group is affected, its dependent successors never pass a cancellation point, other iterations complete fully.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "combo_cancel_in_for_taskgroups.c"

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

#define N 60
#define KIDS 6

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  static int passed[N], full[N], after_cancel[N];
#pragma omp parallel
#pragma omp for schedule(dynamic)
  for (int i = 0; i < N; i++) {
    int tok = 0;
    (void)tok;
    int cancel_this = (i % 3 == 0);
#pragma omp taskgroup
    {
#pragma omp task depend(out : tok) firstprivate(i, cancel_this)
      {
        spin(200);
        if (cancel_this) {
#pragma omp cancel taskgroup
          __atomic_fetch_add(&after_cancel[i], 1, __ATOMIC_RELAXED);
        }
      }
      for (int k = 0; k < KIDS; k++) {
#pragma omp task depend(in : tok) firstprivate(i)
        {
#pragma omp cancellation point taskgroup
          __atomic_fetch_add(&passed[i], 1, __ATOMIC_RELAXED);
#pragma omp task firstprivate(i)
          __atomic_fetch_add(&full[i], 1, __ATOMIC_RELAXED);
        }
      }
    }
  }
  int bad_cancelled = 0, bad_full = 0, bad_after = 0;
  for (int i = 0; i < N; i++) {
    bad_after += after_cancel[i];
    if (i % 3 == 0)
      bad_cancelled += passed[i];
    else
      bad_full += (passed[i] != KIDS) + (full[i] != KIDS);
  }
  EXPECT(0, bad_after, "statements executed after cancel taskgroup");
  EXPECT(0, bad_cancelled, "successors in cancelled groups past the cancellation point");
  EXPECT(0, bad_full, "uncancelled groups with missing work");
  return failures != 0;
}
