// Checks mergeable tasks (plain, under final, if(0), and nested) produce correct results whether or not the runtime merges them; tasks only read their firstprivate data.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_mergeable.c"

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

#define N 2000

int main(void)
{
  static long out[N];
  long total = 0;
  int big[256];
  for (int i = 0; i < 256; i++)
    big[i] = i;
#pragma omp parallel shared(out, total, big)
#pragma omp single
  {
    for (int i = 0; i < N; i++) {
      int mode = i % 4;
      long v = i * 3L;
      if (mode == 0) {
#pragma omp task mergeable firstprivate(v, i) shared(out)
        out[i] = v + 1;
      } else if (mode == 1) {
#pragma omp task mergeable final(1) firstprivate(v, i, big) shared(out)
        {
          long s = 0;
#pragma omp task mergeable shared(s) firstprivate(big)
          for (int k = 0; k < 256; k++)
            s += big[k];
          out[i] = v + 1 + (s - 256 * 255 / 2);
        }
      } else if (mode == 2) {
#pragma omp task mergeable if (0) firstprivate(v, i) shared(out)
        out[i] = v + 1;
      } else {
#pragma omp task mergeable untied firstprivate(v, i) shared(out, total)
        {
#pragma omp task mergeable firstprivate(v) shared(total)
          {
#pragma omp atomic
            total += v;
          }
          out[i] = v + 1;
        }
      }
    }
  }
  long expect_total = 0;
  for (int i = 0; i < N; i++) {
    if (i % 4 == 3)
      expect_total += i * 3L;
    if (out[i] != i * 3L + 1) {
      EXPECT(i * 3L + 1, out[i], "out[%d]", i);
      break;
    }
  }
  EXPECT(expect_total, total, "total from nested mergeable tasks");
  return failures != 0;
}
