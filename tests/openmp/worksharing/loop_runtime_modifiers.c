// Checks schedule(monotonic:runtime) and schedule(nonmonotonic:runtime) with run-sched-var set to dynamic and guided: every iteration once, chunk rules, and per-thread increasing order for monotonic.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(omp_sched_t kind, int c, int n) {
  int nthr = 0;
  char tag[64];
  omp_set_schedule(kind, c);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(monotonic:runtime)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  snprintf(tag, sizeof tag, "monotonic:runtime(%d,%d)", kind, c);
  check_once(tag, n);
  check_monotonic(tag, n, nthr);
  if (kind == omp_sched_dynamic)
    check_chunks(tag, n, c);
  else
    check_min_run(tag, n, c);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(nonmonotonic:runtime)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  snprintf(tag, sizeof tag, "nonmonotonic:runtime(%d,%d)", kind, c);
  check_once(tag, n);
  if (kind == omp_sched_dynamic)
    check_chunks(tag, n, c);
  else
    check_min_run(tag, n, c);
}

int main(void) {
  static const int sizes[] = {0, 1, 5, 64, 1001};
  for (int rep = 0; rep < 5; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      run(omp_sched_dynamic, 1, sizes[s]);
      run(omp_sched_dynamic, 6, sizes[s]);
      run(omp_sched_guided, 1, sizes[s]);
      run(omp_sched_guided, 4, sizes[s]);
    }
  return fails != 0;
}
