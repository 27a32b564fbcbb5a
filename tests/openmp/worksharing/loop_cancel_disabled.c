// Checks that with cancellation disabled (the default OMP_CANCELLATION) cancel for, cancel parallel and cancellation points are no-ops: every loop iteration runs completely, exactly once, and every thread passes the barriers.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 200
static int done[N];

int main(void) {
  CHECK(0, omp_get_cancellation(), "omp_get_cancellation by default");
  for (int rep = 0; rep < 20; rep++) {
    for (int i = 0; i < N; i++)
      done[i] = 0;
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (int i = 0; i < N; i++) {
        if (i % 10 == 3) {
#pragma omp cancel for
        }
#pragma omp atomic
        done[i]++;
#pragma omp cancellation point for
      }
#pragma omp for schedule(dynamic)
      for (int i = 0; i < N; i++) {
#pragma omp cancel for if (i == rep)
#pragma omp atomic
        done[i]++;
      }
    }
    for (int i = 0; i < N; i++)
      CHECK(2, done[i], "rep %d count[%d] over two loops with ignored cancels", rep, i);

    /* An ignored cancel parallel: the loop and the barrier after it (the
       GOMP_*_cancel variants) still complete on every thread. */
    int nthr = 0, past = 0;
#pragma omp parallel reduction(+ : past)
    {
#pragma omp single
      nthr = omp_get_num_threads();
      if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
      }
#pragma omp for schedule(guided)
      for (int i = 0; i < N; i++)
#pragma omp atomic
        done[i]++;
#pragma omp barrier
      past++;
    }
    for (int i = 0; i < N; i++)
      CHECK(3, done[i], "rep %d count[%d] after the loop in a cancellable region", rep, i);
    CHECK(nthr, past, "rep %d threads past the barrier after an ignored cancel parallel", rep);
  }
  return fails != 0;
}
