// Checks schedule(dynamic, c) with c larger than the trip count: all iterations run once, on a single thread, in order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int req, int n, int c) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, c)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("dynamic,big", n);
  check_chunks("dynamic,big", n, c);
  if (n > 0)
    CHECK(0, seq[0], "n=%d chunk=%d first iteration is its thread's first", n, c);
}

int main(void) {
  static const int sizes[] = {1, 2, 10, 333};
  int reqs[2] = {omp_get_max_threads(), 4};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 20; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        run(reqs[r], sizes[s], sizes[s] + 1);
        run(reqs[r], sizes[s], 1000000);
      }

  /* Literal chunk bigger than the loop. */
  int n = 50;
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 64)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("dynamic,64", n);
  check_chunks("dynamic,64", n, 64);
  return fails != 0;
}
