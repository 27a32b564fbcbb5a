// Checks schedule(runtime) after omp_set_schedule to each kind (static, dynamic, guided, auto, with and without chunk, monotonic): omp_get_schedule round trip, every iteration once, and the kind's chunk rules.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

struct sched {
  omp_sched_t kind;
  int chunk;
  int monotonic;
};

static void run(struct sched s, int n) {
  omp_sched_t kind = s.kind;
  if (s.monotonic)
    kind = (omp_sched_t)(kind | omp_sched_monotonic);
  omp_set_schedule(kind, s.chunk);

  omp_sched_t got;
  int gotchunk;
  omp_get_schedule(&got, &gotchunk);
  CHECK(s.kind, got & ~omp_sched_monotonic, "omp_get_schedule kind after set(%d,%d)", s.kind, s.chunk);
  if (s.kind != omp_sched_auto && s.chunk >= 1)
    CHECK(s.chunk, gotchunk, "omp_get_schedule chunk after set(%d,%d)", s.kind, s.chunk);

  int nthr = 0;
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
  char tag[64];
  snprintf(tag, sizeof tag, "runtime(%d,%d%s)", s.kind, s.chunk, s.monotonic ? ",monotonic" : "");
  check_once(tag, n);
  if (s.kind == omp_sched_static && s.chunk < 1)
    check_one_block(tag, n, nthr);
  if (s.kind == omp_sched_static && s.chunk >= 1)
    check_round_robin(tag, n, s.chunk, nthr);
  if (s.kind == omp_sched_dynamic && s.chunk >= 1)
    check_chunks(tag, n, s.chunk);
  if (s.kind == omp_sched_guided && s.chunk >= 1)
    check_min_run(tag, n, s.chunk);
  if (s.monotonic)
    check_monotonic(tag, n, nthr);
}

int main(void) {
  static const struct sched scheds[] = {
      {omp_sched_static, 0, 0},  {omp_sched_static, 1, 0},  {omp_sched_static, 4, 0},
      {omp_sched_dynamic, 0, 0}, {omp_sched_dynamic, 1, 0}, {omp_sched_dynamic, 5, 0},
      {omp_sched_guided, 0, 0},  {omp_sched_guided, 3, 0},  {omp_sched_auto, 0, 0},
      {omp_sched_dynamic, 2, 1}, {omp_sched_guided, 4, 1},
  };
  static const int sizes[] = {0, 1, 7, 100, 1001};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned k = 0; k < sizeof scheds / sizeof scheds[0]; k++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(scheds[k], sizes[s]);

  return fails != 0;
}
