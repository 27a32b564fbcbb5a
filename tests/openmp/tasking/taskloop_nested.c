// Checks nested taskloops (a taskloop in the body of a taskloop, two and three levels, with reductions at each level) compute the right sums and visit each cell once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_nested.c"

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
  static int grid[30][40];
  long total = 0, t3 = 0;
#pragma omp parallel shared(grid, total, t3)
#pragma omp single
  {
#pragma omp taskloop grainsize(3) reduction(+ : total)
    for (int i = 0; i < 30; i++) {
      long row = 0;
#pragma omp taskloop grainsize(7) reduction(+ : row)
      for (int j = 0; j < 40; j++) {
        grid[i][j]++;
        row += i * 40 + j;
      }
      total += row;
    }
#pragma omp taskloop num_tasks(3) reduction(+ : t3)
    for (int i = 0; i < 6; i++) {
#pragma omp taskloop num_tasks(2) reduction(+ : t3)
      for (int j = 0; j < 6; j++) {
#pragma omp taskloop grainsize(2) reduction(+ : t3)
        for (int k = 0; k < 6; k++)
          t3 += 1;
      }
    }
  }
  int bad = 0;
  for (int i = 0; i < 30; i++)
    for (int j = 0; j < 40; j++)
      bad += grid[i][j] != 1;
  EXPECT(0, bad, "cells not visited exactly once");
  EXPECT(1200L * 1199 / 2, total, "nested taskloop reduction");
  EXPECT(216, t3, "three-level taskloop reduction");
  return failures != 0;
}
