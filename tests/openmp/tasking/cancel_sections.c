// Checks cancel sections (OMP_CANCELLATION=true): nothing after the cancel in its section runs, each section runs at most once, the region continues after the sections construct, and a later sections construct runs every section.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_sections.c"

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
  for (int r = 0; r < 10; r++) {
    int ran[4] = {0, 0, 0, 0}, after_cancel = 0, continued = 0, nthr = 1, later[3] = {0, 0, 0};
#pragma omp parallel shared(ran, after_cancel, continued, nthr, later)
    {
#pragma omp single
      nthr = omp_get_num_threads();
#pragma omp sections
      {
#pragma omp section
        {
#pragma omp atomic
          ran[0]++;
#pragma omp cancel sections
#pragma omp atomic
          after_cancel++;
        }
#pragma omp section
        {
#pragma omp atomic
          ran[1]++;
#pragma omp cancellation point sections
          spin(100);
        }
#pragma omp section
        {
#pragma omp atomic
          ran[2]++;
        }
#pragma omp section
        {
#pragma omp cancellation point sections
#pragma omp atomic
          ran[3]++;
        }
      }
#pragma omp atomic
      continued++;
#pragma omp sections
      {
#pragma omp section
        later[0]++;
#pragma omp section
        later[1]++;
#pragma omp section
        later[2]++;
      }
    }
    EXPECT(0, after_cancel, "round %d: statements after cancel sections", r);
    for (int s = 0; s < 4; s++)
      if (ran[s] > 1)
        EXPECT(1, ran[s], "round %d: section %d ran more than once", r, s);
    EXPECT(nthr, continued, "round %d: threads continuing after the cancelled sections", r);
    EXPECT(3, later[0] + later[1] + later[2], "round %d: sections of the uncancelled construct", r);
  }
  return failures != 0;
}
