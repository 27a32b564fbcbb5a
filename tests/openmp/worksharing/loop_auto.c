// Checks schedule(auto): every iteration runs exactly once, for several trip counts, bounds, steps and team sizes.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int req, int n) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(auto)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
#pragma omp for schedule(auto)
    for (int i = n + 4; i > 4; i--)
      record(i - 5, &myseq);
  }
  for (int k = 0; k < n; k++)
    CHECK(2, cnt[k], "auto n=%d count[%d] over two loops", n, k);
}

int main(void) {
  static const int sizes[] = {0, 1, 2, 3, 5, 64, 1001};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 10; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(reqs[r], sizes[s]);
  return fails != 0;
}
