// Checks final: omp_in_final() is true in a final task and in its descendants, and descendants of a final task are included (complete before the generating task continues).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_final_included.c"

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

static volatile int one = 1;

int main(void)
{
  int results[8] = {0};
#pragma omp parallel shared(results)
#pragma omp single
  {
    EXPECT(0, omp_in_final(), "omp_in_final() in implicit task");
#pragma omp task final(1) shared(results)
    {
      results[0] = omp_in_final();
      int c = 0;
      for (int i = 0; i < 100; i++) {
#pragma omp task shared(c, results)
        {
          c++;
          if (!omp_in_final())
            results[1] = -1;
        }
        if (c != i + 1) {
          EXPECT(i + 1, c, "included child %d completed before generating task continued", i);
          break;
        }
      }
      int g = 0, g2 = 0;
#pragma omp task shared(g, g2)
      {
#pragma omp task shared(g)
        g = omp_in_final() ? 2 : 1;
        g2 = g; /* grandchild is included, so already done */
      }
      results[2] = g2;
      /* A deferred-looking task with a depend clause inside a final task is still included. */
      int d = 0;
#pragma omp task depend(out : d) shared(d)
      d = 3;
      results[3] = d;
    }
#pragma omp task final(0) shared(results)
    results[4] = omp_in_final() ? 1 : 2;
#pragma omp task final(one > 0) shared(results)
    results[5] = omp_in_final();
#pragma omp taskwait
  }
  EXPECT(1, results[0] != 0, "omp_in_final() inside final task");
  EXPECT(0, results[1], "omp_in_final() inside children of final task");
  EXPECT(2, results[2], "grandchild of final task included and final");
  EXPECT(3, results[3], "child with depend inside final task included");
  EXPECT(2, results[4], "omp_in_final() inside final(0) task is false");
  EXPECT(1, results[5] != 0, "omp_in_final() inside final(runtime true) task");
  return failures != 0;
}
