// Checks schedule(runtime) with OMP_SCHEDULE=guided,5 from the .env sidecar: omp_get_schedule reports it, every iteration runs once, no chunk but the last is below 5.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

int main(void) {
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK(omp_sched_guided, kind & ~omp_sched_monotonic, "omp_get_schedule kind from OMP_SCHEDULE");
  CHECK(5, chunk, "omp_get_schedule chunk from OMP_SCHEDULE");
  static const int sizes[] = {0, 1, 2, 9, 100, 1001};
  for (int rep = 0; rep < 10; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s];
      reset(n);
#pragma omp parallel
      {
        int myseq = 0;
#pragma omp for schedule(runtime)
        for (int i = 0; i < n; i++)
          record(i, &myseq);
      }
      check_once("runtime", n);
      check_min_run("runtime=guided,5", n, 5);
    }
  return fails != 0;
}
