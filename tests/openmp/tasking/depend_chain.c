// Checks long inout chains: 3000 tasks on one variable run strictly in creation order, and 4 interleaved chains over 4 variables each stay in order.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_chain.c"

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

#define LEN 3000
#define LEN4 800

int main(void)
{
  long x = 0;
  long v[4] = {0, 0, 0, 0};
  int bad = 0, bad4 = 0;
#pragma omp parallel shared(x, v, bad, bad4)
#pragma omp single
  {
    for (int i = 0; i < LEN; i++) {
#pragma omp task depend(inout : x) shared(x, bad) firstprivate(i)
      {
        if (x != i)
          bad++; /* serialized by the chain */
        x = i + 1;
      }
    }
    for (int i = 0; i < LEN4; i++)
      for (int c = 0; c < 4; c++) {
#pragma omp task depend(inout : v[c]) shared(v, bad4) firstprivate(i, c)
        {
          if (v[c] != (long)i * (c + 1)) {
#pragma omp atomic
            bad4++;
          }
          v[c] += c + 1;
        }
      }
  }
  EXPECT(LEN, x, "end of the single chain");
  EXPECT(0, bad, "out-of-order tasks in the single chain");
  EXPECT(0, bad4, "out-of-order tasks in the interleaved chains");
  for (int c = 0; c < 4; c++)
    EXPECT((long)LEN4 * (c + 1), v[c], "end of chain %d", c);
  return failures != 0;
}
