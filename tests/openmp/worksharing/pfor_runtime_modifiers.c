// Checks combined parallel for schedule(monotonic:runtime) and schedule(nonmonotonic:runtime) with constant bounds (GOMP_parallel_loop_runtime, GOMP_parallel_loop_nonmonotonic_runtime): every iteration once, chunk rules, monotonic order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static int nthr;

#define PFOR(N, SCHED, MONO)                                                   \
  do {                                                                         \
    int myseq = 0;                                                             \
    reset(N);                                                                  \
    _Pragma(SCHED) for (int i = 0; i < N; i++) {                               \
      _Pragma("omp atomic write") nthr = omp_get_num_threads();                \
      record(i, &myseq);                                                       \
    }                                                                          \
    check(N, kind, chunk, MONO);                                               \
  } while (0);

static void check(int n, omp_sched_t kind, int chunk, int mono) {
  char tag[64];
  snprintf(tag, sizeof tag, "%s(%d,%d)", mono ? "monotonic:runtime" : "nonmonotonic:runtime", kind, chunk);
  check_once(tag, n);
  if (kind == omp_sched_dynamic)
    check_chunks(tag, n, chunk);
  else
    check_min_run(tag, n, chunk);
  if (mono)
    check_monotonic(tag, n, nthr);
}

int main(void) {
  for (int rep = 0; rep < 3; rep++)
    for (int k = 0; k < 4; k++) {
      omp_sched_t kind = k % 2 ? omp_sched_guided : omp_sched_dynamic;
      int chunk = k < 2 ? 1 : 4;
      omp_set_schedule(kind, chunk);
      PFOR(9, "omp parallel for schedule(monotonic:runtime) firstprivate(myseq)", 1)
      PFOR(1000, "omp parallel for schedule(monotonic:runtime) firstprivate(myseq)", 1)
      PFOR(9, "omp parallel for schedule(nonmonotonic:runtime) firstprivate(myseq)", 0)
      PFOR(1000, "omp parallel for schedule(nonmonotonic:runtime) firstprivate(myseq)", 0)
    }
  return fails != 0;
}
