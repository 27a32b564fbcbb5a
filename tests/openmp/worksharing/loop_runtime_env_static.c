// Checks schedule(runtime) with OMP_SCHEDULE=static,3 from the .env sidecar: omp_get_schedule reports it, every iteration runs once, chunks of 3 go round robin to the threads.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

int main(void) {
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK(omp_sched_static, kind & ~omp_sched_monotonic, "omp_get_schedule kind from OMP_SCHEDULE");
  CHECK(3, chunk, "omp_get_schedule chunk from OMP_SCHEDULE");
  static const int sizes[] = {0, 1, 2, 9, 100, 1001};
  for (int rep = 0; rep < 10; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s], nthr = 0;
      reset(n);
#pragma omp parallel
      {
        int myseq = 0;
#pragma omp single
        nthr = omp_get_num_threads();
#pragma omp for schedule(runtime)
        for (int i = 0; i < n; i++)
          record(i, &myseq);
      }
      check_once("runtime", n);
      check_round_robin("runtime=static,3", n, 3, nthr);
    }
  return fails != 0;
}
