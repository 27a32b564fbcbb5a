// Checks loops with non-unit steps (2, 5, 7, 1000, run-time step) and <=, <, != tests, whose bounds are not multiples of the step, under each schedule: every iteration once, none outside the range.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

/* Trip count of for (i = lo; i < hi; i += st). */
static int trips(int lo, int hi, int st) { return hi > lo ? (hi - lo + st - 1) / st : 0; }

static void run(int lo, int hi, int st) {
  int n = trips(lo, hi, st), nthr = 0, bad = 0;
  char tag[64];
  snprintf(tag, sizeof tag, "[%d,%d) step %d", lo, hi, st);
  if (n > MAXN)
    return;

  reset(n);
#pragma omp parallel reduction(+ : bad)
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(static, 2)
    for (int i = lo; i < hi; i += st) {
      bad += (i - lo) % st != 0;
      record((i - lo) / st, &myseq);
    }
  }
  check_once(tag, n);
  check_round_robin(tag, n, 2, nthr);
  CHECK(0, bad, "%s static,2 iterations off the step", tag);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 3)
    for (int i = lo; i <= hi - 1; i += st)
      record((i - lo) / st, &myseq);
#pragma omp for schedule(guided)
    for (int i = lo; i <= hi - 1; i += st)
      record((i - lo) / st, &myseq);
#pragma omp for schedule(static)
    for (int i = lo; i < hi; i += st)
      record((i - lo) / st, &myseq);
  }
  for (int k = 0; k < n; k++)
    CHECK(3, cnt[k], "%s count[%d] over dynamic, guided, static", tag, k);
}

int main(void) {
  for (int rep = 0; rep < 3; rep++) {
    run(0, 100, 2);
    run(0, 101, 2);
    run(3, 1004, 5);
    run(-50, 51, 7);
    run(0, 6, 7);
    run(0, 7, 7);
    run(0, 8, 7);
    run(-1000000, 1000000, 1000);
    run(5, 5, 3);
  }

  /* Literal step and the != form (unit step), plus a run-time step. */
  int n = 250;
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i != n; i++)
      record(i, &myseq);
  }
  check_once("!= unit step", n);

  volatile int vst = 9;
  int st = vst;
  n = trips(11, 2000, st);
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(guided, 3)
    for (int i = 11; i < 2000; i += st)
      record((i - 11) / st, &myseq);
  }
  check_once("run-time step 9", n);
  check_min_run("run-time step 9", n, 3);
  return fails != 0;
}
