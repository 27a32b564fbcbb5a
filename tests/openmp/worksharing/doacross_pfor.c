// Checks doacross on combined parallel for ordered(1) (constant and run-time bounds; static chunk, dynamic, guided): sinks wait for sources; values chain in order.
#include <omp.h>
#include <stdio.h>

#include "doacross_chain.h"

int main(void) {
  volatile int vn = 12;
  int n = vn;
  reset(n);
#pragma omp parallel for ordered(1) schedule(static, 1)
  for (int i = 0; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
    need(i - 1);
    body(i);
#pragma omp ordered depend(source)
  }
  check("parallel for static,1", n);

  reset(n);
#pragma omp parallel for ordered(1) schedule(dynamic)
  for (int i = 0; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
    need(i - 1);
    body(i);
#pragma omp ordered depend(source)
  }
  check("parallel for dynamic", n);

  reset(12);
#pragma omp parallel for ordered(1) schedule(guided)
  for (int i = 0; i < 12; i++) {
#pragma omp ordered depend(sink : i - 1)
    need(i - 1);
    body(i);
#pragma omp ordered depend(source)
  }
  check("parallel for guided constant bounds", 12);
  return fails != 0;
}
