// Checks schedule(nonmonotonic:dynamic[, c]): every iteration runs exactly once and each chunk of c runs on one thread, in order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int req, int n, int c) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(nonmonotonic:dynamic, c)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("nonmonotonic:dynamic c", n);
  check_chunks("nonmonotonic:dynamic c", n, c);

  /* Default chunk. */
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(nonmonotonic:dynamic)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("nonmonotonic:dynamic", n);
}

int main(void) {
  static const int sizes[] = {0, 1, 2, 3, 17, 400, 1001};
  static const int chunks[] = {1, 3, 8};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 2; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (unsigned c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
          run(reqs[r], sizes[s], chunks[c]);
  return fails != 0;
}
