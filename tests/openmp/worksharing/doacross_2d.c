// Checks doacross loop nests, ordered(2) with depend(sink: i-1,j) depend(sink: i,j-1) (and i-1,j+1), under static, static chunk, dynamic and guided: sinks wait for their sources; the wavefront matches the sequential result.
#include <omp.h>
#include <stdio.h>

#include "doacross_wave.h"

#define WAVE(sched, tag)                                                       \
  reset();                                                                     \
  _Pragma("omp parallel") _Pragma(sched) for (int i = 0; i < NI; i++)           \
    for (int j = 0; j < NJ; j++) {                                             \
      _Pragma("omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)") { \
        need(i - 1, j);                                                        \
        need(i, j - 1);                                                        \
      }                                                                        \
      body(i, j, 0);                                                           \
      _Pragma("omp ordered depend(source)")                                    \
    }                                                                          \
  check(tag, 0);

int main(void) {
  WAVE("omp for ordered(2) schedule(static)", "static")
  WAVE("omp for ordered(2) schedule(static, 1)", "static,1")
  WAVE("omp for ordered(2) schedule(dynamic)", "dynamic")
  WAVE("omp for ordered(2) schedule(guided)", "guided")

  /* North-east neighbour too: sink (i-1, j+1). */
  reset();
#pragma omp parallel
#pragma omp for ordered(2) schedule(static, 2)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1) depend(sink : i - 1, j + 1)
      {
        need(i - 1, j);
        need(i, j - 1);
        need(i - 1, j + 1);
      }
      body(i, j, 1);
#pragma omp ordered depend(source)
    }
  check("static,2 with north-east", 1);
  return fails != 0;
}
