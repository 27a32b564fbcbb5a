// Checks combined parallel for schedule(runtime) with constant bounds (GOMP_parallel_loop_maybe_nonmonotonic_runtime) after omp_set_schedule to each kind: every iteration once and the kind's chunk rules.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static int nthr;

#define PFOR(N)                                                                \
  do {                                                                         \
    int myseq = 0;                                                             \
    reset(N);                                                                  \
    _Pragma("omp parallel for schedule(runtime) firstprivate(myseq)")          \
    for (int i = 0; i < N; i++) {                                              \
      _Pragma("omp atomic write") nthr = omp_get_num_threads();                \
      record(i, &myseq);                                                       \
    }                                                                          \
    check(N, kind, chunk);                                                     \
  } while (0);

static void check(int n, omp_sched_t kind, int chunk) {
  char tag[48];
  snprintf(tag, sizeof tag, "parallel for runtime(%d,%d)", kind, chunk);
  check_once(tag, n);
  if (kind == omp_sched_static && chunk < 1)
    check_one_block(tag, n, nthr);
  if (kind == omp_sched_static && chunk >= 1)
    check_round_robin(tag, n, chunk, nthr);
  if (kind == omp_sched_dynamic && chunk >= 1)
    check_chunks(tag, n, chunk);
  if (kind == omp_sched_guided && chunk >= 1)
    check_min_run(tag, n, chunk);
}

int main(void) {
  static const omp_sched_t kinds[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided, omp_sched_auto};
  static const int chunks[] = {0, 1, 6};
  for (int rep = 0; rep < 2; rep++)
    for (int k = 0; k < 4; k++)
      for (int c = 0; c < 3; c++) {
        omp_sched_t kind = kinds[k];
        int chunk = chunks[c];
        omp_set_schedule(kind, chunk);
        PFOR(1)
        PFOR(13)
        PFOR(1000)
      }
  return fails != 0;
}
