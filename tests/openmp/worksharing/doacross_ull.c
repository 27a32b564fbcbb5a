// Checks doacross loops on unsigned long long variables above LLONG_MAX (GOMP_loop_ull_doacross_*, GOMP_doacross_ull_post/wait) under static, static chunk, dynamic, guided and runtime: sinks wait for sources; values chain in order.
#include <omp.h>
#include <stdio.h>

#include "doacross_chain.h"

typedef unsigned long long ull;

/* Sink offsets must be constants: one macro for step 1, one for step 4. */
#define DOACROSS1(sched, tag)                                                  \
  reset(n);                                                                    \
  _Pragma("omp parallel") _Pragma(sched) for (ull i = lo; i < lo + (ull)n; i++) { \
    _Pragma("omp ordered depend(sink : i - 1)") need((int)(i - lo) - 1);       \
    body((int)(i - lo));                                                       \
    _Pragma("omp ordered depend(source)")                                      \
  }                                                                            \
  check(tag, n);

#define DOACROSS4(sched, tag)                                                  \
  reset(n);                                                                    \
  _Pragma("omp parallel") _Pragma(sched) for (ull i = lo; i < lo + 4 * (ull)n; i += 4) { \
    _Pragma("omp ordered depend(sink : i - 4)") need((int)((i - lo) / 4) - 1); \
    body((int)((i - lo) / 4));                                                 \
    _Pragma("omp ordered depend(source)")                                      \
  }                                                                            \
  check(tag, n);

static void run(ull lo, int n) {
  DOACROSS1("omp for ordered(1) schedule(static)", "static")
  DOACROSS1("omp for ordered(1) schedule(static, 2)", "static,2")
  DOACROSS1("omp for ordered(1) schedule(dynamic)", "dynamic")
  DOACROSS1("omp for ordered(1) schedule(guided)", "guided")
  DOACROSS1("omp for ordered(1) schedule(runtime)", "runtime")
  DOACROSS4("omp for ordered(1) schedule(static, 1)", "step 4 static,1")
  DOACROSS4("omp for ordered(1) schedule(dynamic)", "step 4 dynamic")
}

int main(void) {
  volatile ull big = 0xC000000000000000ULL;
  omp_set_schedule(omp_sched_dynamic, 2);
  run(big, 1);
  run(big + 3, 8);
  return fails != 0;
}
