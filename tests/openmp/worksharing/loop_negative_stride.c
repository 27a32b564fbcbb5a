// Checks loops that count down (step -1, -3, -7, variable) under static, static chunk, dynamic chunk, guided and runtime: every iteration once, static chunks round robin over logical iterations.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int n, int step) {
  int nthr = 0, hi = 50 + step * n, lo = 50; /* iterations hi, hi-step, ... > lo */
  char tag[48];

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(static)
    for (int i = hi; i > lo; i -= step)
      record((hi - i) / step, &myseq);
  }
  snprintf(tag, sizeof tag, "static step -%d", step);
  check_once(tag, n);
  check_one_block(tag, n, nthr);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(static, 3)
    for (int i = hi; i > lo; i -= step)
      record((hi - i) / step, &myseq);
  }
  snprintf(tag, sizeof tag, "static,3 step -%d", step);
  check_once(tag, n);
  check_round_robin(tag, n, 3, nthr);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 4)
    for (int i = hi; i > lo; i -= step)
      record((hi - i) / step, &myseq);
  }
  snprintf(tag, sizeof tag, "dynamic,4 step -%d", step);
  check_once(tag, n);
  check_chunks(tag, n, 4);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(guided, 2)
    for (int i = hi - step; i >= lo; i -= step) /* >= form */
      record((hi - step - i) / step, &myseq);
  }
  snprintf(tag, sizeof tag, "guided,2 step -%d", step);
  check_once(tag, n);
  check_min_run(tag, n, 2);

  omp_set_schedule(omp_sched_dynamic, 3);
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(runtime)
    for (int i = hi; i > lo; i -= step)
      record((hi - i) / step, &myseq);
  }
  snprintf(tag, sizeof tag, "runtime dynamic,3 step -%d", step);
  check_once(tag, n);
  check_chunks(tag, n, 3);
}

int main(void) {
  static const int sizes[] = {0, 1, 2, 10, 333};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      run(sizes[s], 1);
      run(sizes[s], 3);
      run(sizes[s], 7);
    }

  /* Literal step -1 down to a negative bound, dynamic. */
  int n = 300;
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic)
    for (int i = 149; i >= -150; i--)
      record(149 - i, &myseq);
  }
  check_once("dynamic 149..-150", n);
  return fails != 0;
}
