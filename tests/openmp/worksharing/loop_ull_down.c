// Checks unsigned long long loops counting down (step -1, -5, run-time) above LLONG_MAX under dynamic, guided, static and runtime schedules: every iteration once, chunk rules.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

typedef unsigned long long ull;

static void run(ull lo, int n, ull st) {
  ull hi = lo + (ull)n * st; /* iterations hi, hi - st, ..., > lo */
  int nthr = 0;
  char tag[80];
  snprintf(tag, sizeof tag, "lo=%llu n=%d step=-%llu", lo, n, st);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(dynamic, 2)
    for (ull i = hi; i > lo; i -= st)
      record((int)((hi - i) / st), &myseq);
  }
  check_once(tag, n);
  check_chunks(tag, n, 2);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(monotonic:guided, 3)
    for (ull i = hi; i > lo; i -= st)
      record((int)((hi - i) / st), &myseq);
  }
  check_once(tag, n);
  check_min_run(tag, n, 3);
  check_monotonic(tag, n, nthr);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(static, 4)
    for (ull i = hi; i > lo; i -= st)
      record((int)((hi - i) / st), &myseq);
  }
  check_once(tag, n);
  check_round_robin(tag, n, 4, nthr);

  omp_set_schedule(omp_sched_static, 0);
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(runtime)
    for (ull i = hi - st; i >= lo; i -= st) /* >= form, stays above 0 */
      record((int)((hi - st - i) / st), &myseq);
  }
  check_once(tag, n);
  check_one_block(tag, n, nthr);
}

int main(void) {
  volatile ull big = 0x9000000000000000ULL;
  static const int sizes[] = {0, 1, 2, 50, 1001};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      run(big, sizes[s], 1);
      run(big, sizes[s], 5);
      run(big + 12345, sizes[s], 1ULL << 44);
    }
  return fails != 0;
}
