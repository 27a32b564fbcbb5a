// Checks collapse(2) loops (rectangular, offset bounds, steps, an empty dimension) under static, static chunk, dynamic, guided and runtime: every (i,j) once, static chunks round robin over the collapsed space, lastprivate(i,j) = sequential exit values.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int ni, int nj) {
  int n = ni * nj, nthr = 0, li = -100, lj = -100;
  char tag[48];
  snprintf(tag, sizeof tag, "%dx%d", ni, nj);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for collapse(2) schedule(static)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
  check_one_block(tag, n, nthr);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(2) schedule(static, 3)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
  check_round_robin(tag, n, 3, nthr);

  /* Only non-empty: for an empty loop GCC's lastprivate copy-out test is true
     on every thread, so all of them would write li and lj (a race, and the
     values are unspecified then anyway). */
  if (n > 0) {
    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
      /* Offset bounds and steps: i = 5, 7, ...; j = 10, 7, 4, ... (downward). */
#pragma omp for collapse(2) schedule(dynamic, 4) lastprivate(li, lj)
      for (li = 5; li < 5 + 2 * ni; li += 2)
        for (lj = 10; lj > 10 - 3 * nj; lj -= 3)
          record(((li - 5) / 2) * nj + (10 - lj) / 3, &myseq);
    }
    check_once(tag, n);
    check_chunks(tag, n, 4);
    CHECK(5 + 2 * ni, li, "%s lastprivate outer variable", tag);
    CHECK(10 - 3 * nj, lj, "%s lastprivate inner variable", tag);
  }

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(2) schedule(guided, 2)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
  check_min_run(tag, n, 2);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(2) schedule(runtime)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
}

int main(void) {
  static const int dims[][2] = {{0, 5}, {5, 0}, {1, 1}, {1, 9}, {9, 1}, {3, 4}, {17, 13}, {40, 50}};
  omp_set_schedule(omp_sched_dynamic, 2);
  for (int rep = 0; rep < 3; rep++)
    for (unsigned d = 0; d < sizeof dims / sizeof dims[0]; d++)
      run(dims[d][0], dims[d][1]);
  return fails != 0;
}
