// Checks firstprivate on worksharing loops (scalars, arrays, together with lastprivate) under static, dynamic and guided: each thread's copy starts at the original value; the lastprivate value is the copy of the thread that ran the last iteration.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 500
static int who[N];

int main(void) {
  for (int rep = 0; rep < 10; rep++) {
    int x = 1000 + rep, arr[4] = {rep, rep + 1, rep + 2, rep + 3}, bad = 0;
    /* Each thread's copy of x counts its iterations from the original value. */
#pragma omp parallel reduction(+ : bad)
    {
#pragma omp for schedule(dynamic, 2) firstprivate(x, arr)
      for (int i = 0; i < N; i++) {
        int mine = x - (1000 + rep); /* iterations this thread ran before */
        bad += mine < 0 || mine >= N;
        for (int k = 0; k < 4; k++)
          bad += arr[k] != rep + k + mine;
        x++;
        for (int k = 0; k < 4; k++)
          arr[k]++;
      }
#pragma omp for schedule(static) firstprivate(x)
      for (int i = 0; i < N; i++) {
        bad += x < 1000 + rep || x > 1000 + rep + i; /* static runs in order */
        x++;
      }
#pragma omp for schedule(guided) firstprivate(x)
      for (int i = 0; i < N; i++) {
        bad += x < 1000 + rep || x >= 1000 + rep + N;
        x++;
      }
    }
    CHECK(0, bad, "rep %d iterations seeing a wrong firstprivate copy", rep);
    CHECK(1000 + rep, x, "rep %d original after firstprivate-only loops", rep);

    /* firstprivate + lastprivate on one variable: the result is the original
       plus what the thread that ran the last iteration added (monotonic: that
       iteration was its last). */
    int y = 7 * rep;
#pragma omp parallel
#pragma omp for schedule(monotonic : dynamic, 3) firstprivate(y) lastprivate(y)
    for (int i = 0; i < N; i++) {
      y += i;
      who[i] = omp_get_thread_num();
    }
    int expect = 7 * rep;
    for (int i = 0; i < N; i++)
      if (who[i] == who[N - 1])
        expect += i;
    CHECK(expect, y, "rep %d firstprivate+lastprivate value", rep);
  }
  return fails != 0;
}
