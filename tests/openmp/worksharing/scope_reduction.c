// Checks the OpenMP 5.1 scope construct (GOMP_scope_start for task reductions): every thread runs the block; reduction(+, max), reduction(task, +) with in_reduction tasks, nowait + barrier, private; results complete after the scope on every thread.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define REPS 50

int main(void) {
  long x = 0, y = 0, w = 0;
  int mx = -1, z = -7, nthr = 0, good = 0;
#pragma omp parallel reduction(+ : good)
  {
    int t = omp_get_thread_num();
#pragma omp single nowait
    nthr = omp_get_num_threads();
    for (int r = 0; r < REPS; r++) {
#pragma omp single
      x = r, y = 0, w = 0, mx = -1;
#pragma omp scope reduction(+ : x) reduction(max : mx)
      {
        x += t + 1;
        mx = mx > 10 * t + r ? mx : 10 * t + r;
      }
      /* The scope's implicit barrier: complete everywhere. */
      int n = omp_get_num_threads();
      good += x == r + (long)n * (n + 1) / 2 && mx == 10 * (n - 1) + r;
#pragma omp scope reduction(task, + : y)
      {
        y += 1;
        for (int k = 0; k < 3; k++) {
#pragma omp task in_reduction(+ : y)
          y += 10 * (k + 1);
        }
      }
      good += y == 61L * n;
#pragma omp scope reduction(+ : w) nowait
      w += t;
#pragma omp scope private(z)
      z = t; /* each thread's own z */
#pragma omp barrier
      good += w == (long)n * (n - 1) / 2;
#pragma omp barrier
    }
  }
  CHECK(3 * nthr * REPS, good, "reads of complete scope reductions (team %d)", nthr);
  CHECK(-7, z, "original of the private variable");
  return fails != 0;
}
