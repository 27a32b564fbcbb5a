// Checks orphaned worksharing loops (in functions called from a parallel region, directly and through a pointer, and with no enclosing region): every iteration once, lastprivate, and a team of one runs all in order.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 300
static int hits[N], order[N], next, shared_last;

static void dyn_loop(int n, int *last) {
#pragma omp for schedule(dynamic, 3) lastprivate(shared_last)
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    hits[i]++;
    shared_last = i;
  }
  *last = shared_last; /* every thread reads it after the implicit barrier */
#pragma omp barrier
}

static void static_loop_nowait(int n) {
#pragma omp for schedule(static) nowait
  for (int i = 0; i < n; i++) {
    int p;
#pragma omp atomic capture
    p = next++;
    order[p] = i;
#pragma omp atomic
    hits[i]++;
  }
}

static void guided_loop(int n) {
#pragma omp for schedule(guided)
  for (int i = n - 1; i >= 0; i--)
#pragma omp atomic
    hits[i]++;
}

static void reset(void) {
  for (int i = 0; i < N; i++)
    hits[i] = 0, order[i] = -1;
  next = 0;
}

int main(void) {
  void (*fp)(int) = guided_loop;
  for (int rep = 0; rep < 10; rep++) {
    int wrong = 0;
    reset();
#pragma omp parallel reduction(+ : wrong)
    {
      int last = -1;
      dyn_loop(N, &last);
      wrong += last != N - 1;
      fp(N);
      static_loop_nowait(N);
    }
    for (int i = 0; i < N; i++)
      CHECK(3, hits[i], "rep %d count[%d] over three orphaned loops", rep, i);
    CHECK(0, wrong, "rep %d threads with a wrong lastprivate value", rep);
  }

  /* Not in a parallel region: a team of one runs every iteration, in order. */
  reset();
  int last = -1;
  dyn_loop(N, &last);
  CHECK(N - 1, last, "lastprivate outside any region");
  static_loop_nowait(N);
  guided_loop(N);
  for (int i = 0; i < N; i++) {
    CHECK(3, hits[i], "no region: count[%d]", i);
    CHECK(i, order[i], "no region: static loop order at %d", i);
  }

  /* Inside a parallel region of one thread (if(0)). */
  reset();
#pragma omp parallel if (0)
  static_loop_nowait(N);
  for (int i = 0; i < N; i++)
    CHECK(i, order[i], "if(0) region: static loop order at %d", i);
  return fails != 0;
}
