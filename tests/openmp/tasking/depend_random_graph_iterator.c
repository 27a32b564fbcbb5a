// Checks random dependence graphs expressed with iterator dependences (3 seeds, 2000 tasks or WEFT_TEST_SCALE times that, 0..5 dependences each incl. none, in/out/inout and mutexinoutset, both GCC depend-array layouts): logs respect sequential order.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_random_graph_iterator.c"

#include "random_graph.h"

static int vars[NV]; /* dependence addresses only */

int main(void)
{
  graph_tasks();
  static const unsigned seeds[] = {3, 555, 271828};
  for (int s = 0; s < 3; s++) {
    rng_state = seeds[s];
    for (int t = 0; t < ntask; t++) {
      int n = rnd() % 6; /* 0..5 dependences, including none at all */
      gen(t, n, (t % 3 == 0) ? 4 : 3);
    }
    simulate();
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < ntask; t++) {
      int ins[MAXD], outs[MAXD], ios[MAXD], mxs[MAXD];
      int nin = 0, nout = 0, nio = 0, nmx = 0;
      for (int d = 0; d < nd[t]; d++) {
        switch (dk[t][d]) {
        case K_IN:
          ins[nin++] = dv[t][d];
          break;
        case K_OUT:
          outs[nout++] = dv[t][d];
          break;
        case K_INOUT:
          ios[nio++] = dv[t][d];
          break;
        default:
          mxs[nmx++] = dv[t][d];
          break;
        }
      }
      if (t % 3 != 0) {
        /* in/out/inout only: GCC's original depend-array layout, sized at run time */
#pragma omp task depend(iterator(i = 0 : nin), in : vars[ins[i]]) depend(iterator(i = 0 : nout), out : vars[outs[i]]) \
    depend(iterator(i = 0 : nio), inout : vars[ios[i]]) firstprivate(t)
        task_body(t);
      } else {
        /* with mutexinoutset: the newer layout */
#pragma omp task depend(iterator(i = 0 : nin), in : vars[ins[i]]) depend(iterator(i = 0 : nout), out : vars[outs[i]]) \
    depend(iterator(i = 0 : nio), inout : vars[ios[i]]) depend(iterator(i = 0 : nmx), mutexinoutset : vars[mxs[i]]) \
    firstprivate(t)
        task_body(t);
      }
    }
    check_logs(seeds[s]);
  }
  return failures != 0;
}
