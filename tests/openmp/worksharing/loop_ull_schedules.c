// Checks unsigned long long loops above LLONG_MAX (GCC's GOMP_loop_ull_* entry points) under every schedule kind and modifier: every iteration once, chunk rules, monotonic order.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

typedef unsigned long long ull;

static void run(ull lo, int n, ull st) {
  ull hi = lo + (ull)n * st;
  int nthr = 0;
  char tag[80];
#define LOOP(sched, name, extra)                                               \
  reset(n);                                                                    \
  _Pragma("omp parallel") {                                                    \
    int myseq = 0;                                                             \
    _Pragma("omp single") nthr = omp_get_num_threads();                        \
    _Pragma(sched) for (ull i = lo; i < hi; i += st) record((int)((i - lo) / st), &myseq); \
  }                                                                            \
  snprintf(tag, sizeof tag, "%s lo=%llu n=%d step=%llu", name, lo, n, st);     \
  check_once(tag, n);                                                          \
  extra;

  LOOP("omp for schedule(static)", "static", check_one_block(tag, n, nthr))
  LOOP("omp for schedule(static, 3)", "static,3", check_round_robin(tag, n, 3, nthr))
  LOOP("omp for schedule(dynamic)", "dynamic", (void)0)
  LOOP("omp for schedule(dynamic, 4)", "dynamic,4", check_chunks(tag, n, 4))
  LOOP("omp for schedule(monotonic:dynamic, 2)", "monotonic:dynamic,2",
       check_chunks(tag, n, 2); check_monotonic(tag, n, nthr))
  LOOP("omp for schedule(guided)", "guided", (void)0)
  LOOP("omp for schedule(guided, 5)", "guided,5", check_min_run(tag, n, 5))
  LOOP("omp for schedule(monotonic:guided, 3)", "monotonic:guided,3",
       check_min_run(tag, n, 3); check_monotonic(tag, n, nthr))
  LOOP("omp for schedule(auto)", "auto", (void)0)
  omp_set_schedule(omp_sched_dynamic, 3);
  LOOP("omp for schedule(runtime)", "runtime=dynamic,3", check_chunks(tag, n, 3))
  LOOP("omp for schedule(nonmonotonic:runtime)", "nonmonotonic:runtime=dynamic,3", check_chunks(tag, n, 3))
  omp_set_schedule(omp_sched_guided, 2);
  LOOP("omp for schedule(monotonic:runtime)", "monotonic:runtime=guided,2",
       check_min_run(tag, n, 2); check_monotonic(tag, n, nthr))
#undef LOOP
}

int main(void) {
  volatile ull big = 0x8000000000000005ULL; /* above LLONG_MAX */
  volatile ull top = ~0ULL;
  static const int sizes[] = {0, 1, 3, 100, 1001};
  for (int rep = 0; rep < 2; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s];
      run(big, n, 1);
      run(big, n, 7);
      run(top - (ull)n * 11 - 1, n, 11); /* ends just below ULLONG_MAX */
      run(5, n, 1ULL << 40);
    }
  return fails != 0;
}
