// Checks schedule(guided, c): every iteration runs exactly once and no chunk except the last is smaller than c (each run of one thread's consecutive iterations has >= c).
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int req, int n, int c) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
    int myseq = 0;
#pragma omp for schedule(guided, c)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("guided,c", n);
  check_min_run("guided,c", n, c);
}

int main(void) {
  static const int sizes[] = {0, 1, 4, 5, 6, 29, 100, 1001, 4000};
  static const int chunks[] = {1, 2, 5, 16, 200};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 3; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (unsigned c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
          run(reqs[r], sizes[s], chunks[c]);

  /* Literal chunk. */
  int n = 777;
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(guided, 10)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  check_once("guided,10", n);
  check_min_run("guided,10", n, 10);
  return fails != 0;
}
