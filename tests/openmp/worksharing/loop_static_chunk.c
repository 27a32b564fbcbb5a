// Checks schedule(static, c) for c = 1, 3, 7 and c > trip count: iterations run once and chunk j goes to thread j % nthreads, each thread in increasing order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static const int sizes[] = {0, 1, 5, 13, 64, 1001};

static void run(int req, int n, int c) {
  int nthr = 0;
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(static, c)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("static,c", n);
  check_round_robin("static,c", n, c, nthr);

  /* Negative lower bound, step 2. */
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(static, c)
    for (int i = -7; i < -7 + 2 * n; i += 2)
      record((i + 7) / 2, &myseq);
  }
  check_once("static,c step 2", n);
  check_round_robin("static,c step 2", n, c, nthr);
}

int main(void) {
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 5; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        run(reqs[r], n, 1);
        run(reqs[r], n, 3);
        run(reqs[r], n, 7);
        run(reqs[r], n, n + 5);
      }

  /* A literal chunk size (GCC folds it into the code). */
  int nthr = 0, n = 100;
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(static, 4)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("static,4", n);
  check_round_robin("static,4", n, 4, nthr);
  return fails != 0;
}
