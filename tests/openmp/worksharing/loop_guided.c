// Checks schedule(guided) without chunk: every iteration runs exactly once and each chunk runs in order on one thread, for several trip counts and team sizes.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int req, int n) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(guided)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("guided", n);

  /* Downward with step -3. */
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(guided)
    for (int i = 3 * n; i > 0; i -= 3)
      record(n - i / 3, &myseq);
  }
  check_once("guided step -3", n);
}

int main(void) {
  static const int sizes[] = {0, 1, 2, 3, 5, 64, 1001, 4000};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 5; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(reqs[r], sizes[s]);
  return fails != 0;
}
