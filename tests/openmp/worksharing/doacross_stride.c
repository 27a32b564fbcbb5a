// Checks doacross loops with non-unit and negative steps (sink i-3 with step 3, sink i+1 counting down, sink i+4 with step -2 on two earlier iterations): sinks wait for sources; values chain in order.
#include <omp.h>
#include <stdio.h>

#include "doacross_chain.h"

int main(void) {
  int n = 10;

  /* Step 3: the previous iteration is i - 3. */
  reset(n);
#pragma omp parallel
#pragma omp for ordered(1) schedule(static, 1)
  for (int i = 2; i < 2 + 3 * n; i += 3) {
#pragma omp ordered depend(sink : i - 3)
    need((i - 2) / 3 - 1);
    body((i - 2) / 3);
#pragma omp ordered depend(source)
  }
  check("step 3", n);

  /* Counting down: the previous iteration is i + 1. */
  reset(n);
#pragma omp parallel
#pragma omp for ordered(1) schedule(dynamic)
  for (int i = n; i > 0; i--) {
#pragma omp ordered depend(sink : i + 1)
    need(n - i - 1);
    body(n - i);
#pragma omp ordered depend(source)
  }
  check("step -1", n);

  /* Step -2 with sinks on the previous two iterations (i + 2, i + 4). */
  reset(n);
#pragma omp parallel
#pragma omp for ordered(1) schedule(guided)
  for (int i = 2 * n; i > 0; i -= 2) {
    int k = (2 * n - i) / 2;
#pragma omp ordered depend(sink : i + 2) depend(sink : i + 4)
    {
      need(k - 1);
      need(k - 2);
    }
    body(k);
#pragma omp ordered depend(source)
  }
  check("step -2, two sinks", n);
  return fails != 0;
}
