// Checks reductions on combined parallel for (constant bounds: GOMP_parallel_loop_*; run-time bounds; static, dynamic, guided, runtime) with several operators at once: results equal the sequential loop.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 3000

static int w(int i) { return (i * 7919) % 1013 - 500; }

int main(void) {
  long esum = 11;
  int emax = -1000000, emin = 1000000;
  unsigned exor = 0;
  for (int i = 0; i < N; i++) {
    esum += w(i);
    emax = emax > w(i) ? emax : w(i);
    emin = emin < w(i) ? emin : w(i);
    exor ^= (unsigned)w(i) * 2654435761u;
  }
  volatile int vn = N;
  int n = vn;
  omp_set_schedule(omp_sched_guided, 7);
  for (int rep = 0; rep < 10; rep++) {
#define CHECKALL(tag)                                                          \
  CHECK(esum, sum, "%s rep %d +", tag, rep);                                   \
  CHECK(emax, mx, "%s rep %d max", tag, rep);                                  \
  CHECK(emin, mn, "%s rep %d min", tag, rep);                                  \
  CHECK(exor, x, "%s rep %d ^", tag, rep);
#define PFOR(sched, bound, tag)                                                \
  {                                                                            \
    long sum = 11;                                                             \
    int mx = -1000000, mn = 1000000;                                           \
    unsigned x = 0;                                                            \
    _Pragma(sched) for (int i = 0; i < bound; i++) {                           \
      sum += w(i);                                                             \
      mx = mx > w(i) ? mx : w(i);                                              \
      mn = mn < w(i) ? mn : w(i);                                              \
      x ^= (unsigned)w(i) * 2654435761u;                                       \
    }                                                                          \
    CHECKALL(tag)                                                              \
  }
#define REDS reduction(+ : sum) reduction(max : mx) reduction(min : mn) reduction(^ : x)
    PFOR("omp parallel for schedule(static) REDS", N, "static")
    PFOR("omp parallel for schedule(dynamic, 16) REDS", N, "dynamic,16")
    PFOR("omp parallel for schedule(guided) REDS", N, "guided")
    PFOR("omp parallel for schedule(runtime) REDS", N, "runtime")
    PFOR("omp parallel for schedule(monotonic:dynamic) REDS", N, "monotonic:dynamic")
    PFOR("omp parallel for schedule(dynamic, 5) REDS", n, "dynamic,5 run-time bounds")
    PFOR("omp parallel for schedule(static, 9) REDS", n, "static,9 run-time bounds")
  }
  return fails != 0;
}
