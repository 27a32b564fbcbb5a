// Checks schedule(runtime) with OMP_SCHEDULE=monotonic:dynamic,2 from the .env sidecar: every iteration once, chunks of 2 on one thread, each thread's chunks in increasing order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

int main(void) {
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK(omp_sched_dynamic, kind & ~omp_sched_monotonic, "omp_get_schedule kind from OMP_SCHEDULE");
  CHECK(2, chunk, "omp_get_schedule chunk from OMP_SCHEDULE");
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
      check_chunks("runtime=monotonic:dynamic,2", n, 2);
      check_monotonic("runtime=monotonic:dynamic,2", n, nthr);
    }
  return fails != 0;
}
