// Checks lastprivate(conditional: x) on loops under static, dynamic, guided and runtime: x gets the value from the sequentially last iteration that assigned it, not from the last iteration.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 1000
static int pick[N];

static void run(int n, int stride, int off) {
  /* Assign only where i % stride == off, so the last assignment is not
     (usually) in the last iteration. */
  int expect = -1;
  for (int i = 0; i < n; i++) {
    pick[i] = i % stride == off;
    if (pick[i])
      expect = 5 * i;
  }
  if (expect < 0)
    return;
  int x = -7, y = -7, z = -7, w = -7;
#pragma omp parallel
  {
#pragma omp for schedule(static) lastprivate(conditional : x)
    for (int i = 0; i < n; i++)
      if (pick[i])
        x = 5 * i;
#pragma omp for schedule(dynamic, 3) lastprivate(conditional : y)
    for (int i = 0; i < n; i++)
      if (pick[i])
        y = 5 * i;
#pragma omp for schedule(guided) lastprivate(conditional : z)
    for (int i = 0; i < n; i++)
      if (pick[i])
        z = 5 * i;
#pragma omp for schedule(runtime) lastprivate(conditional : w)
    for (int i = 0; i < n; i++)
      if (pick[i])
        w = 5 * i;
  }
  CHECK(expect, x, "static n=%d stride=%d off=%d", n, stride, off);
  CHECK(expect, y, "dynamic,3 n=%d stride=%d off=%d", n, stride, off);
  CHECK(expect, z, "guided n=%d stride=%d off=%d", n, stride, off);
  CHECK(expect, w, "runtime n=%d stride=%d off=%d", n, stride, off);
}

int main(void) {
  omp_set_schedule(omp_sched_dynamic, 2);
  for (int rep = 0; rep < 4; rep++) {
    run(N, 7, 0);
    run(N, 97, 3);
    run(N, N, 0);   /* only the first iteration assigns */
    run(N, 400, 1); /* iterations 1, 401, 801 */
    run(10, 3, 2);
    run(1, 1, 0);
  }
  return fails != 0;
}
