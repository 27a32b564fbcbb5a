// Checks random dependence graphs built from depend objects (3 seeds, 2000 tasks or WEFT_TEST_SCALE times that, 3 depobjs per task chosen at run time among in/out/inout/mutexinoutset on 16 variables): logs respect sequential order, mutexinoutset members never overlap.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_random_graph_depobj.c"

#include "random_graph.h"

static int vars[NV];               /* dependence addresses only */
static omp_depend_t objs[NV][4];   /* one depend object per (variable, kind) */

int main(void)
{
  graph_tasks();
  for (int v = 0; v < NV; v++) {
    omp_depend_t *o;
    o = &objs[v][K_IN];
#pragma omp depobj(*o) depend(in : vars[v])
    o = &objs[v][K_OUT];
#pragma omp depobj(*o) depend(out : vars[v])
    o = &objs[v][K_INOUT];
#pragma omp depobj(*o) depend(inout : vars[v])
    o = &objs[v][K_MTX];
#pragma omp depobj(*o) depend(mutexinoutset : vars[v])
  }
  static const unsigned seeds[] = {7, 4242, 31337};
  for (int s = 0; s < 3; s++) {
    rng_state = seeds[s];
    for (int t = 0; t < ntask; t++)
      gen(t, 3, 4); /* three distinct variables, kinds in/out/inout/mutexinoutset */
    simulate();
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < ntask; t++) {
      omp_depend_t *p0 = &objs[dv[t][0]][dk[t][0]];
      omp_depend_t *p1 = &objs[dv[t][1]][dk[t][1]];
      omp_depend_t *p2 = &objs[dv[t][2]][dk[t][2]];
      if (t % 2) {
#pragma omp task depend(depobj : *p0, *p1, *p2) firstprivate(t)
        task_body(t);
      } else {
        /* same three dependences, one via a plain clause when its kind allows */
        int *a = &vars[dv[t][0]];
        switch (dk[t][0]) {
        case K_IN:
#pragma omp task depend(in : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        case K_OUT:
#pragma omp task depend(out : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        case K_INOUT:
#pragma omp task depend(inout : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        default:
#pragma omp task depend(mutexinoutset : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        }
      }
    }
    check_logs(seeds[s]);
  }
  for (int v = 0; v < NV; v++)
    for (int k = 0; k < 4; k++) {
      omp_depend_t *o = &objs[v][k];
#pragma omp depobj(*o) destroy
    }
  return failures != 0;
}
