// Checks the ordered clause on unsigned long long loops above LLONG_MAX (GOMP_loop_ull_ordered_*) with static, static chunk, dynamic, guided and runtime schedules: ordered regions run once each, in iteration order.
#include <omp.h>
#include <stdio.h>

#include "ordered_record.h"

typedef unsigned long long ull;

static void run(ull lo, int n, ull st) {
  ull hi = lo + (ull)n * st;
#define ORD(sched, name)                                                       \
  reset(n);                                                                    \
  _Pragma("omp parallel") _Pragma(sched) for (ull i = lo; i < hi; i += st) {   \
    int k = (int)((i - lo) / st);                                              \
    delay(k);                                                                  \
    _Pragma("omp ordered") in_order(k);                                        \
  }                                                                            \
  check_order(name, n);
  ORD("omp for ordered schedule(static)", "static")
  ORD("omp for ordered schedule(static, 3)", "static,3")
  ORD("omp for ordered schedule(dynamic)", "dynamic")
  ORD("omp for ordered schedule(guided, 2)", "guided,2")
  ORD("omp for ordered schedule(runtime)", "runtime")
#undef ORD
}

int main(void) {
  volatile ull big = 0xA000000000000000ULL;
  omp_set_schedule(omp_sched_dynamic, 2);
  static const int sizes[] = {0, 1, 9, 150};
  for (int rep = 0; rep < 2; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      run(big, sizes[s], 1);
      run(big + 1, sizes[s], 1ULL << 50);
    }
  return fails != 0;
}
