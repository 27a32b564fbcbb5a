// Checks schedule(static) without chunk: every iteration runs exactly once and each thread gets at most one contiguous block, run in order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static const int sizes[] = {0, 1, 2, 3, 4, 5, 7, 64, 1000, 1001};

static void run(int req, int n) {
  int nthr = 0;
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("static 0..n", n);
  check_one_block("static 0..n", n, nthr);

  /* Non-zero lower bound, step 3, inclusive bound. */
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(static)
    for (int i = 10; i <= 10 + 3 * (n - 1); i += 3)
      record((i - 10) / 3, &myseq);
  }
  check_once("static step 3", n);
  check_one_block("static step 3", n, nthr);
}

int main(void) {
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 5; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(reqs[r], sizes[s]);
  return fails != 0;
}
