// Checks N-queens solution counts (N=6..9) computed with recursive tasks, per-task board copies (firstprivate arrays), a depth cutoff and atomic accumulation, against known counts.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_nqueens.c"

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

#define MAXN 12

static int ok(const char *b, int row, int col)
{
  for (int r = 0; r < row; r++) {
    int c = b[r];
    if (c == col || c - col == r - row || c - col == row - r)
      return 0;
  }
  return 1;
}

static long serial(char *b, int n, int row)
{
  if (row == n)
    return 1;
  long s = 0;
  for (int c = 0; c < n; c++)
    if (ok(b, row, c)) {
      b[row] = (char)c;
      s += serial(b, n, row + 1);
    }
  return s;
}

static void solve(char *bp, int n, int row, long *count)
{
  if (row >= 3) { /* cutoff */
    long s = serial(bp, n, row);
#pragma omp atomic
    *count += s;
    return;
  }
  for (int c = 0; c < n; c++) {
    if (!ok(bp, row, c))
      continue;
    char b[MAXN];
    memcpy(b, bp, MAXN);
    b[row] = (char)c;
#pragma omp task firstprivate(b, row, n)
    solve(b, n, row + 1, count);
  }
#pragma omp taskwait
}

int main(void)
{
  static const long known[] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352};
  for (int n = 6; n <= 9; n++) {
    long count = 0;
#pragma omp parallel shared(count)
#pragma omp single
    {
      char b[MAXN] = {0};
      solve(b, n, 0, &count);
    }
    EXPECT(known[n], count, "solutions for %d queens", n);
  }
  return failures != 0;
}
