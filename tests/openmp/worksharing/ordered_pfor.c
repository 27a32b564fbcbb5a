// Checks the ordered clause on combined parallel for (static, static chunk, dynamic, guided, runtime, constant and run-time bounds): ordered regions run exactly once each, in iteration order.
#include <omp.h>
#include <stdio.h>

#include "ordered_record.h"

int main(void) {
  static const int sizes[] = {0, 1, 6, 250};
  omp_set_schedule(omp_sched_guided, 3);
  for (int rep = 0; rep < 3; rep++) {
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s];
      reset(n);
#pragma omp parallel for ordered schedule(static)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("static", n);
      reset(n);
#pragma omp parallel for ordered schedule(static, 1)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("static,1", n);
      reset(n);
#pragma omp parallel for ordered schedule(dynamic, 2)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("dynamic,2", n);
      reset(n);
#pragma omp parallel for ordered schedule(guided)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("guided", n);
      reset(n);
#pragma omp parallel for ordered schedule(runtime)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("runtime", n);
    }
    /* Constant bounds. */
    reset(100);
#pragma omp parallel for ordered schedule(dynamic)
    for (int i = 0; i < 100; i++) {
      delay(i);
#pragma omp ordered
      in_order(i);
    }
    check_order("dynamic constant bounds", 100);
  }
  return fails != 0;
}
