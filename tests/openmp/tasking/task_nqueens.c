// Checks N-queens solution counts (N=6..9) computed with recursive tasks, per-task board copies (firstprivate arrays), a depth cutoff and atomic accumulation, against known counts.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_nqueens.c"

#include "omp_check.h"

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
