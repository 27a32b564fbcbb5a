// Checks schedule(dynamic, 7): every iteration runs exactly once and each chunk of 7 consecutive iterations runs on one thread, in order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int req, int n) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 7)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("dynamic,7", n);
  check_chunks("dynamic,7", n, 7);

  /* The chunk size as a run-time value, and a step of 4. */
  int c = 7;
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, c)
    for (int i = 3; i < 3 + 4 * n; i += 4)
      record((i - 3) / 4, &myseq);
  }
  check_once("dynamic,c step 4", n);
  check_chunks("dynamic,c step 4", n, c);
}

int main(void) {
  static const int sizes[] = {0, 1, 7, 7 + 1, 2 * 7 + 3, 100, 1001};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 10; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(reqs[r], sizes[s]);
  return fails != 0;
}
