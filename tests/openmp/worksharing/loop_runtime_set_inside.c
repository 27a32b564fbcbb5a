// Checks omp_set_schedule called by every thread inside a parallel region: the schedule(runtime) loop there uses it (static,2 round robin) and the encountering task's setting is unchanged after the region.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

int main(void) {
  /* Set inside the region by every thread: the loop uses it, and the
     encountering task's own setting is unchanged afterwards. */
  for (int rep = 0; rep < 20; rep++) {
    int c = 1 + rep % 4, n = 200, nthr = 0;
    omp_set_schedule(omp_sched_dynamic, 9);
    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
      omp_set_schedule(omp_sched_static, c);
#pragma omp single
      nthr = omp_get_num_threads();
#pragma omp for schedule(runtime)
      for (int i = 0; i < n; i++)
        record(i, &myseq);
    }
    check_once("runtime set inside region", n);
    check_round_robin("runtime set inside region", n, c, nthr);
    omp_sched_t got;
    int gotchunk;
    omp_get_schedule(&got, &gotchunk);
    CHECK(omp_sched_dynamic, got & ~omp_sched_monotonic, "kind outside after region");
    CHECK(9, gotchunk, "chunk outside after region");
  }
  return fails != 0;
}
