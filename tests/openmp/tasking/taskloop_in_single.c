// Checks taskloops encountered in single, in every thread of a parallel region (each its own taskloop), and inside a parallel for iteration, producing correct results.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_in_single.c"

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

#define N 600

int main(void)
{
  static int s1[N], s2[4][N], s3[64][20];
  int nthreads = 0;
#pragma omp parallel shared(s1, s2, s3, nthreads)
  {
#pragma omp single
    {
      nthreads = omp_get_num_threads();
#pragma omp taskloop grainsize(11)
      for (int i = 0; i < N; i++)
        s1[i] += i;
    }
    /* every thread runs its own taskloop */
    int me = omp_get_thread_num();
    if (me < 4) {
#pragma omp taskloop num_tasks(5)
      for (int i = 0; i < N; i++)
        s2[me][i] = me + i;
    }
#pragma omp for schedule(dynamic)
    for (int k = 0; k < 64; k++) {
#pragma omp taskloop grainsize(3)
      for (int j = 0; j < 20; j++)
        s3[k][j] = k * j;
    }
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += s1[i] != i;
  EXPECT(0, bad, "taskloop in single");
  bad = 0;
  for (int t = 0; t < 4 && t < nthreads; t++)
    for (int i = 0; i < N; i++)
      bad += s2[t][i] != t + i;
  EXPECT(0, bad, "per-thread taskloops");
  bad = 0;
  for (int k = 0; k < 64; k++)
    for (int j = 0; j < 20; j++)
      bad += s3[k][j] != k * j;
  EXPECT(0, bad, "taskloop inside parallel for");
  return failures != 0;
}
