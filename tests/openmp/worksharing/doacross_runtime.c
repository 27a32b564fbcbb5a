// Checks doacross loops with schedule(runtime) (GOMP_loop_doacross_runtime_start) after omp_set_schedule to static, static chunk, dynamic, guided and auto: sinks wait for sources; values chain in order.
#include <omp.h>
#include <stdio.h>

#include "doacross_chain.h"

int main(void) {
  static const omp_sched_t kinds[] = {omp_sched_static, omp_sched_static, omp_sched_dynamic,
                                      omp_sched_dynamic, omp_sched_guided, omp_sched_auto};
  static const int chunks[] = {0, 1, 1, 3, 2, 0};
  for (int s = 0; s < 6; s++) {
    omp_set_schedule(kinds[s], chunks[s]);
    char tag[40];
    snprintf(tag, sizeof tag, "runtime(%d,%d)", kinds[s], chunks[s]);
    int n = 10;
    reset(n);
#pragma omp parallel
#pragma omp for ordered(1) schedule(runtime)
    for (int i = 0; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
      need(i - 1);
      body(i);
#pragma omp ordered depend(source)
    }
    check(tag, n);
  }
  return fails != 0;
}
