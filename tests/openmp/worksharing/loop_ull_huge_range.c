// Checks unsigned long long loops whose range (end - start) does not fit in long (3 .. 2^64 - 2^53, step 2^52) under dynamic, guided, static and runtime: every iteration once, exact trip count.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

typedef unsigned long long ull;

int main(void) {
  /* end - start is about 2^64 (no long holds it), while end - start + step
     still fits: how the trip count is computed is up to the implementation. */
  volatile ull vlo = 3, vhi = 0ULL - (1ULL << 53), vst = 1ULL << 52;
  ull lo = vlo, hi = vhi, st = vst;
  int n = (int)((hi - lo - 1) / st + 1);
  CHECK(4094, n, "trip count of the sequential loop");
  for (int rep = 0; rep < 3; rep++) {
    int nthr = 0;
    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
#pragma omp single
      nthr = omp_get_num_threads();
#pragma omp for schedule(dynamic, 16)
      for (ull i = lo; i < hi; i += st)
        record((int)((i - lo) / st), &myseq);
    }
    check_once("dynamic,16", n);
    check_chunks("dynamic,16", n, 16);

    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
#pragma omp for schedule(guided, 4)
      for (ull i = lo; i < hi; i += st)
        record((int)((i - lo) / st), &myseq);
    }
    check_once("guided,4", n);
    check_min_run("guided,4", n, 4);

    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
#pragma omp for schedule(static)
      for (ull i = lo; i < hi; i += st)
        record((int)((i - lo) / st), &myseq);
    }
    check_once("static", n);
    check_one_block("static", n, nthr);

    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
#pragma omp for schedule(static, 5)
      for (ull i = lo; i < hi; i += st)
        record((int)((i - lo) / st), &myseq);
    }
    check_once("static,5", n);
    check_round_robin("static,5", n, 5, nthr);

    omp_set_schedule(omp_sched_dynamic, 8);
    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
#pragma omp for schedule(runtime)
      for (ull i = lo; i < hi; i += st)
        record((int)((i - lo) / st), &myseq);
    }
    check_once("runtime dynamic,8", n);
    check_chunks("runtime dynamic,8", n, 8);

    /* Downward over the same huge range. */
    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
#pragma omp for schedule(dynamic, 3)
      for (ull i = hi; i > lo; i -= st)
        record((int)((hi - i) / st), &myseq);
    }
    check_once("dynamic,3 downward", n);
    check_chunks("dynamic,3 downward", n, 3);
  }
  return fails != 0;
}
