// Checks schedule(runtime) with OMP_SCHEDULE=dynamic,4 and OMP_NUM_THREADS=3 from the .env sidecar: team of 3, every iteration once, chunks of 4 on one thread in order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

int main(void) {
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK(omp_sched_dynamic, kind & ~omp_sched_monotonic, "omp_get_schedule kind from OMP_SCHEDULE");
  CHECK(4, chunk, "omp_get_schedule chunk from OMP_SCHEDULE");
  CHECK(3, omp_get_max_threads(), "omp_get_max_threads with OMP_NUM_THREADS=3");
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
      check_chunks("runtime=dynamic,4", n, 4);
      CHECK(3, nthr, "team size with OMP_NUM_THREADS=3");
    }
  return fails != 0;
}
