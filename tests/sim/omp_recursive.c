/* Recursive task programs for the simulator's tests, traced under
   `weft run` (WEFT_TRACE) and replayed under every model. argv[1] picks
   the program; each checks its own result against a serial computation.

     fib N            task shared(x) / taskwait, in parallel + single
     sort N           divide-and-conquer merge sort: the halves' tasks and
                      the merge ordered by depend clauses, then taskwait
     nqueens N        one task per placement, taskwait per level
     nqueens-final N  the same with final() below depth 3 (included tasks)
     nqueens-if N     the same with if() below depth 3 (undeferred tasks)
     wide N           a root that creates N tasks at once with a tiny body
                      each: the front end throttles and runs some in place */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fib(int n) {
  long x, y;
  if (n < 2)
    return n;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

static long fib_serial(int n) {
  return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

static void merge(const int *a, int n, int mid, int *out) {
  int i = 0, j = mid, k = 0;
  while (i < mid && j < n)
    out[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < mid)
    out[k++] = a[i++];
  while (j < n)
    out[k++] = a[j++];
}

static void sort(int *a, int *tmp, int n) {
  if (n <= 16) {
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
        int t = a[j];
        a[j] = a[j - 1];
        a[j - 1] = t;
      }
    return;
  }
  int mid = n / 2;
#pragma omp task depend(out : a[0])
  sort(a, tmp, mid);
#pragma omp task depend(out : a[mid])
  sort(a + mid, tmp + mid, n - mid);
#pragma omp task depend(in : a[0], a[mid]) depend(out : tmp[0])
  merge(a, n, mid, tmp);
#pragma omp taskwait
  memcpy(a, tmp, sizeof(int) * (size_t)n);
}

static int ok(const char *b, int row, int col) {
  for (int r = 0; r < row; r++)
    if (b[r] == col || b[r] - col == r - row || b[r] - col == row - r)
      return 0;
  return 1;
}

enum cutoff { none, with_final, with_if };

static long queens(const char *bp, int n, int row, enum cutoff cut) {
  if (row == n)
    return 1;
  long counts[16] = {0};
  for (int c = 0; c < n; c++) {
    if (!ok(bp, row, c))
      continue;
    char b[16];
    memcpy(b, bp, 16);
    b[row] = (char)c;
    if (cut == with_final) {
#pragma omp task shared(counts) firstprivate(b, c) final(row >= 3)
      counts[c] = queens(b, n, row + 1, cut);
    } else if (cut == with_if) {
#pragma omp task shared(counts) firstprivate(b, c) if (row < 3)
      counts[c] = queens(b, n, row + 1, cut);
    } else {
#pragma omp task shared(counts) firstprivate(b, c)
      counts[c] = queens(b, n, row + 1, cut);
    }
  }
#pragma omp taskwait
  long s = 0;
  for (int c = 0; c < n; c++)
    s += counts[c];
  return s;
}

static long queens_serial(char *b, int n, int row) {
  if (row == n)
    return 1;
  long s = 0;
  for (int c = 0; c < n; c++)
    if (ok(b, row, c)) {
      b[row] = (char)c;
      s += queens_serial(b, n, row + 1);
    }
  return s;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr,
            "usage: %s fib|sort|nqueens|nqueens-final|nqueens-if|wide N\n",
            argv[0]);
    return 2;
  }
  const char *what = argv[1];
  int n = atoi(argv[2]);
  long got = 0, want = 0;
  if (strcmp(what, "fib") == 0) {
#pragma omp parallel
#pragma omp single
    got = fib(n);
    want = fib_serial(n);
  } else if (strcmp(what, "sort") == 0) {
    int *a = malloc(sizeof(int) * (size_t)n),
        *tmp = malloc(sizeof(int) * (size_t)n);
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      a[i] = (int)(x >> 8) % 100000;
      want += a[i];
    }
#pragma omp parallel
#pragma omp single
    sort(a, tmp, n);
    for (int i = 0; i < n; i++) {
      got += a[i];
      if (i > 0 && a[i - 1] > a[i]) {
        fprintf(stderr, "sort: a[%d] = %d > a[%d] = %d\n", i - 1, a[i - 1], i,
                a[i]);
        return 1;
      }
    }
    free(a);
    free(tmp);
  } else if (strncmp(what, "nqueens", 7) == 0) {
    enum cutoff cut = strcmp(what, "nqueens-final") == 0 ? with_final
                      : strcmp(what, "nqueens-if") == 0  ? with_if
                                                         : none;
    char b[16] = {0};
    if (n < 1 || n > 16)
      return 2;
#pragma omp parallel
#pragma omp single
    got = queens(b, n, 0, cut);
    want = queens_serial(b, n, 0);
  } else if (strcmp(what, "wide") == 0) {
    long sum = 0;
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < n; i++) {
#pragma omp task shared(sum) firstprivate(i)
        {
#pragma omp atomic
          sum += i;
        }
      }
#pragma omp taskwait
    }
    got = sum;
    want = (long)n * (n - 1) / 2;
  } else {
    fprintf(stderr, "%s: unknown program %s\n", argv[0], what);
    return 2;
  }
  if (got != want) {
    fprintf(stderr, "%s %d: got %ld, expected %ld\n", what, n, got, want);
    return 1;
  }
  return 0;
}
