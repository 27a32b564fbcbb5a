// Checks the ordered clause with schedule(dynamic, 3): ordered regions run exactly once each, in iteration order (upward and downward loops).
#include <omp.h>
#include <stdio.h>

#include "ordered_record.h"

static void run(int req, int n) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
#pragma omp for ordered schedule(dynamic, 3)
    for (int i = 0; i < n; i++) {
      delay(i);
#pragma omp ordered
      in_order(i);
    }
  }
  check_order("dynamic, 3", n);

  /* Downward, step -3, work after the ordered region too. */
  reset(n);
#pragma omp parallel num_threads(req)
  {
#pragma omp for ordered schedule(dynamic, 3)
    for (int i = 3 * n; i > 0; i -= 3) {
      int k = n - i / 3;
      delay(k);
#pragma omp ordered
      in_order(k);
      delay(k + 1);
    }
  }
  check_order("dynamic, 3 downward", n);
}

int main(void) {
  static const int sizes[] = {0, 1, 2, 5, 64, 300};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 3; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(reqs[r], sizes[s]);
  return fails != 0;
}
