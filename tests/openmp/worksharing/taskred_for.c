// Checks reduction(task, op: x) on worksharing loops (GOMP_loop_start with reductions, GOMP_workshare_task_reduction_unregister) under static, dynamic and guided, with iterations adding directly and through in_reduction tasks: results equal the sequential total.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 200

int main(void) {
  long long etotal = 5;
  int emx = -1;
  for (int i = 0; i < N; i++) {
    etotal += 1 + 3L * i;
    emx = emx > (i * 37) % 211 ? emx : (i * 37) % 211;
  }
  for (int rep = 0; rep < 10; rep++) {
    long long x = 5, y = 5, z = 5;
    int mx = -1;
    int nthr = 0, seen = 0;
#pragma omp parallel reduction(+ : seen)
    {
#pragma omp single nowait
      nthr = omp_get_num_threads();
#pragma omp for schedule(dynamic, 4) reduction(task, + : x) reduction(task, max : mx)
      for (int i = 0; i < N; i++) {
        x += 1; /* direct */
#pragma omp task in_reduction(+ : x) in_reduction(max : mx)
        {
          x += 3L * i;
          mx = mx > (i * 37) % 211 ? mx : (i * 37) % 211;
        }
      }
      /* Complete after the loop's implicit barrier, on every thread. */
      seen += x == etotal && mx == emx;
#pragma omp for schedule(static) reduction(task, + : y)
      for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : y)
        y += 1;
#pragma omp task in_reduction(+ : y)
        y += 3L * i;
      }
#pragma omp for schedule(guided) reduction(task, + : z)
      for (int i = 0; i < N; i++) {
        z += 1 + i;
        if (i % 2) {
#pragma omp task in_reduction(+ : z)
          z += 2L * i;
        } else {
          z += 2L * i;
        }
      }
    }
    CHECK(etotal, x, "rep %d dynamic task reduction +", rep);
    CHECK(emx, mx, "rep %d dynamic task reduction max", rep);
    CHECK(nthr, seen, "rep %d threads seeing the result after the loop", rep);
    CHECK(etotal, y, "rep %d static task reduction (tasks only)", rep);
    CHECK(etotal, z, "rep %d guided task reduction (direct and tasks)", rep);
  }
  return fails != 0;
}
