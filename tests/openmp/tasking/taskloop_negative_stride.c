// Checks taskloop with negative strides and negative bounds (int and long, step -1/-3/-7, collapse with a descending inner loop, pointer-free): each iteration once, lastprivate of the last logical iteration.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_negative_stride.c"

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

int main(int argc, char **argv)
{
  (void)argv;
  int lo = -50 + argc - 1;
  static int hit[301];
  long s = 0;
  int last = 0, cnt2 = 0;
  long sl = 0, cntl = 0;
#pragma omp parallel shared(hit, s, last, cnt2, sl, cntl) firstprivate(lo)
#pragma omp single
  {
#pragma omp taskloop grainsize(9)
    for (int i = 250; i >= lo; i--)
      hit[i + 50]++;
#pragma omp taskloop num_tasks(5) reduction(+ : s) lastprivate(last)
    for (int i = 100; i > -100; i -= 3) {
      s += i;
      last = i;
    }
#pragma omp taskloop collapse(2) reduction(+ : cnt2) grainsize(4)
    for (int i = 10; i > 0; i -= 2)
      for (int j = -1; j >= -9; j -= 4)
        cnt2 += (i > 0 && j < 0);
#pragma omp taskloop reduction(+ : sl, cntl) grainsize(100)
    for (long i = 3000000000L; i > -3000000000L; i -= 7000000L) {
      sl += i / 1000000;
      cntl++;
    }
  }
  int bad = 0;
  for (int k = 0; k <= 300; k++)
    bad += hit[k] != 1;
  EXPECT(0, bad, "descending iterations not hit exactly once");
  long es = 0;
  int elast = 0;
  for (int i = 100; i > -100; i -= 3) {
    es += i;
    elast = i;
  }
  EXPECT(es, s, "sum over step -3");
  EXPECT(elast, last, "lastprivate of step -3 loop");
  EXPECT(15, cnt2, "collapse(2) of descending loops");
  long esl = 0, ecntl = 0;
  for (long i = 3000000000L; i > -3000000000L; i -= 7000000L) {
    esl += i / 1000000;
    ecntl++;
  }
  EXPECT(ecntl, cntl, "long loop with large negative stride: count");
  EXPECT(esl, sl, "long loop with large negative stride: sum");
  return failures != 0;
}
