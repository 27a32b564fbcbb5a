// Checks cancel parallel (OMP_CANCELLATION=true): thread 0 cancels before an explicit barrier it never reaches, so no thread may pass that barrier and nothing after the cancel runs; later regions run normally.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_parallel.c"

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
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  for (int r = 0; r < 5; r++) {
    int after_cancel = 0, after_barrier = 0, started = 0, loop_hits = 0;
#pragma omp parallel shared(after_cancel, after_barrier, started, loop_hits)
    {
#pragma omp atomic
      started++;
      /* a worksharing loop completed before the cancel (its end barrier is cancellation-aware) */
#pragma omp for schedule(dynamic, 4)
      for (int i = 0; i < 100; i++) {
#pragma omp atomic
        loop_hits++;
      }
      if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
#pragma omp atomic
        after_cancel++;
      }
      /* thread 0 never arrives here: the others can only leave through cancellation */
#pragma omp barrier
#pragma omp atomic
      after_barrier++;
    }
    EXPECT(0, after_cancel, "round %d: statements after cancel parallel", r);
    EXPECT(0, after_barrier, "round %d: threads past the barrier of a cancelled region", r);
    EXPECT(1, started >= 1, "round %d: region started", r);
    EXPECT(100, loop_hits, "round %d: iterations of the loop that ended before the cancel", r);
    /* cancellation does not leak into a new region */
    int full = 0, nthr = 0;
#pragma omp parallel shared(full, nthr)
    {
#pragma omp barrier
#pragma omp cancellation point parallel
#pragma omp atomic
      full++;
#pragma omp single
      nthr = omp_get_num_threads();
    }
    EXPECT(nthr, full, "round %d: threads completing an uncancelled region", r);
  }
  return failures != 0;
}
