// Checks loops with exactly one iteration under every schedule: the body runs exactly once, on one thread, and lastprivate gets its value.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

static int ran[16];

int main(void) {
  volatile int vlo = 41;
  int lo = vlo, hi = vlo + 1;
  for (int rep = 0; rep < 30; rep++) {
    int x0 = -1, x1 = -1, x2 = -1, x3 = -1, x4 = -1, x5 = -1, x6 = -1, x7 = -1, x8 = -1, x9 = -1,
        x10 = -1, x11 = -1;
    for (int k = 0; k < 16; k++)
      ran[k] = 0;
    omp_set_schedule(rep % 2 ? omp_sched_guided : omp_sched_dynamic, 2);
#pragma omp parallel num_threads(4)
    {
#pragma omp for schedule(static) lastprivate(x0)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[0]++;
        x0 = i;
      }
#pragma omp for schedule(static, 5) lastprivate(x1)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[1]++;
        x1 = i;
      }
#pragma omp for schedule(dynamic) lastprivate(x2)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[2]++;
        x2 = i;
      }
#pragma omp for schedule(dynamic, 7) lastprivate(x3)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[3]++;
        x3 = i;
      }
#pragma omp for schedule(guided) lastprivate(x4)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[4]++;
        x4 = i;
      }
#pragma omp for schedule(guided, 3) lastprivate(x5)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[5]++;
        x5 = i;
      }
#pragma omp for schedule(runtime) lastprivate(x6)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[6]++;
        x6 = i;
      }
#pragma omp for schedule(auto) lastprivate(x7)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[7]++;
        x7 = i;
      }
#pragma omp for schedule(monotonic:dynamic) lastprivate(x8)
      for (int i = lo; i < hi; i++) {
#pragma omp atomic
        ran[8]++;
        x8 = i;
      }
#pragma omp for ordered schedule(dynamic) lastprivate(x9)
      for (int i = lo; i < hi; i++) {
#pragma omp ordered
        {
#pragma omp atomic
          ran[9]++;
          x9 = i;
        }
      }
#pragma omp for schedule(dynamic) lastprivate(x10)
      for (int i = hi + 5; i > hi + 2; i -= 3) { /* one iteration, downward */
#pragma omp atomic
        ran[10]++;
        x10 = i;
      }
#pragma omp for schedule(dynamic) lastprivate(x11)
      for (unsigned long long i = (unsigned long long)lo; i < (unsigned long long)hi; i++) {
#pragma omp atomic
        ran[11]++;
        x11 = (int)i;
      }
    }
    int x[12] = {x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11};
    for (int k = 0; k < 12; k++) {
      CHECK(1, ran[k], "rep %d loop %d: times the body ran", rep, k);
      CHECK(k == 10 ? hi + 5 : lo, x[k], "rep %d loop %d: lastprivate value", rep, k);
    }
  }
  return fails != 0;
}
