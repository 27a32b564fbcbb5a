// Checks lastprivate on worksharing loops under each schedule (and nowait, combined parallel for, arrays, the loop variable): the original gets the value of the sequentially last iteration.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define LOOP_CHECKS(tag)                                                       \
  do {                                                                         \
    CHECK(n, i, "%s n=%d loop variable after the loop", tag, n);               \
    CHECK(3 * (n - 1) + 1, x, "%s n=%d lastprivate scalar", tag, n);          \
    CHECK((n - 1) * (n - 1), d, "%s n=%d lastprivate double", tag, n);        \
    for (int k = 0; k < 3; k++)                                                \
      CHECK(n - 1 + k, arr[k], "%s n=%d lastprivate arr[%d]", tag, n, k);      \
  } while (0)

static void run(int n) {
  int i = -1, x = -1, arr[3] = {-1, -1, -1};
  double d = -1;

#define BODY                                                                   \
  x = 3 * i + 1;                                                               \
  d = (double)i * i;                                                           \
  for (int k = 0; k < 3; k++)                                                  \
    arr[k] = i + k;

#pragma omp parallel
#pragma omp for schedule(static) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("static");

#pragma omp parallel
#pragma omp for schedule(static, 4) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("static,4");

#pragma omp parallel
#pragma omp for schedule(dynamic) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("dynamic");

#pragma omp parallel
#pragma omp for schedule(dynamic, 7) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("dynamic,7");

#pragma omp parallel
#pragma omp for schedule(guided) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("guided");

#pragma omp parallel
#pragma omp for schedule(runtime) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("runtime");

#pragma omp parallel
#pragma omp for schedule(auto) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("auto");

  /* nowait: the values are there after the barrier. */
  int seen_x = 0, seen_i = 0;
#pragma omp parallel reduction(+ : seen_x, seen_i)
  {
#pragma omp for schedule(dynamic, 3) lastprivate(i, x, d, arr) nowait
    for (i = 0; i < n; i++) {
      BODY
    }
#pragma omp barrier
    seen_x += x != 3 * (n - 1) + 1;
    seen_i += i != n;
  }
  LOOP_CHECKS("dynamic,3 nowait");
  CHECK(0, seen_x, "n=%d threads seeing a wrong lastprivate after nowait+barrier", n);
  CHECK(0, seen_i, "n=%d threads seeing a wrong loop variable after nowait+barrier", n);

#pragma omp parallel for schedule(guided, 2) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("parallel for guided,2");

#pragma omp parallel for schedule(static, 1) lastprivate(i, x, d, arr)
  for (i = 0; i < n; i++) {
    BODY
  }
  LOOP_CHECKS("parallel for static,1");
#undef BODY
}

int main(void) {
  static const int sizes[] = {1, 2, 3, 37, 1000};
  omp_set_schedule(omp_sched_guided, 3);
  for (int rep = 0; rep < 3; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      run(sizes[s]);

  /* Downward loop with step -3: the loop variable ends past the last value. */
  int j = 0, y = 0;
#pragma omp parallel for schedule(dynamic) lastprivate(j, y)
  for (j = 100; j > 0; j -= 3)
    y = j;
  CHECK(-2, j, "downward loop variable after the loop");
  CHECK(1, y, "downward lastprivate value");
  return fails != 0;
}
