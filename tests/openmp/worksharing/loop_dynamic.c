// Checks schedule(dynamic) with the default chunk: every iteration runs exactly once, for several trip counts, team sizes and bounds.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int req, int n) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(dynamic)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("dynamic", n);

  /* Uneven work: early iterations are slow, so the others are taken by
     whichever threads are free. */
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(dynamic)
    for (int i = 5; i < 5 + n; i++) {
      if (i < 9)
        for (volatile int spin = 0; spin < 20000; spin++)
          ;
      record(i - 5, &myseq);
    }
  }
  check_once("dynamic uneven", n);
}

int main(void) {
  static const int sizes[] = {0, 1, 2, 3, 4, 5, 100, 1001};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 10; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(reqs[r], sizes[s]);
  return fails != 0;
}
