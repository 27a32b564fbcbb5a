/* A gcc -fopenmp program for the Perfetto export test: a blocked wavefront
   (each block after its north and west neighbours: in/inout dependences,
   many edges, readers and writers), and in each block a task with two
   children joined by a taskwait (nesting). Blocks per side from argv[1]
   (default 12). Checks its own result. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) {
  if (n < 2)
    return n;
  long a = 0, b = 0;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 12;
  if (n < 1 || n > 64) {
    fprintf(stderr, "omp_wavefront: blocks per side %d not in [1, 64]\n", n);
    return 2;
  }
  long grid[64][64];
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      long *north = i > 0 ? &grid[i - 1][j] : &grid[i][j];
      long *west = j > 0 ? &grid[i][j - 1] : &grid[i][j];
#pragma omp task depend(in                                                     \
                        : *north, *west) depend(inout                          \
                                                : grid[i][j])                  \
    firstprivate(i, j)
      {
        long from = (i > 0 ? grid[i - 1][j] : 1) + (j > 0 ? grid[i][j - 1] : 0);
        grid[i][j] = (from + fib(3)) % 1000003;
      }
    }
  /* Recomputed serially: fib(3) = 2. */
  long expect[64][64];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      long from =
          (i > 0 ? expect[i - 1][j] : 1) + (j > 0 ? expect[i][j - 1] : 0);
      expect[i][j] = (from + 2) % 1000003;
    }
  if (grid[n - 1][n - 1] != expect[n - 1][n - 1]) {
    fprintf(stderr, "omp_wavefront: %ld, expected %ld\n", grid[n - 1][n - 1],
            expect[n - 1][n - 1]);
    return 1;
  }
  return 0;
}
