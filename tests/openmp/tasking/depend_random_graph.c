// Checks random dependence graphs (3 fixed seeds, 2000 tasks or WEFT_TEST_SCALE times that, random in/out/inout on 16 variables): per-variable logs of task ids respect the sequential dependence order and reads see the right number of earlier writes.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_random_graph.c"

#include "random_graph.h"

static int vars[NV]; /* dependence addresses only */

static void create(int t)
{
  int *a = &vars[dv[t][0]];
  if (nd[t] == 1) {
    switch (dk[t][0]) {
    case K_IN:
#pragma omp task depend(in : *a) firstprivate(t)
      task_body(t);
      break;
    case K_OUT:
#pragma omp task depend(out : *a) firstprivate(t)
      task_body(t);
      break;
    default:
#pragma omp task depend(inout : *a) firstprivate(t)
      task_body(t);
      break;
    }
    return;
  }
  int *b = &vars[dv[t][1]];
  switch (dk[t][0] * 3 + dk[t][1]) {
  case K_IN * 3 + K_IN:
#pragma omp task depend(in : *a, *b) firstprivate(t)
    task_body(t);
    break;
  case K_IN * 3 + K_OUT:
#pragma omp task depend(in : *a) depend(out : *b) firstprivate(t)
    task_body(t);
    break;
  case K_IN * 3 + K_INOUT:
#pragma omp task depend(in : *a) depend(inout : *b) firstprivate(t)
    task_body(t);
    break;
  case K_OUT * 3 + K_IN:
#pragma omp task depend(out : *a) depend(in : *b) firstprivate(t)
    task_body(t);
    break;
  case K_OUT * 3 + K_OUT:
#pragma omp task depend(out : *a, *b) firstprivate(t)
    task_body(t);
    break;
  case K_OUT * 3 + K_INOUT:
#pragma omp task depend(out : *a) depend(inout : *b) firstprivate(t)
    task_body(t);
    break;
  case K_INOUT * 3 + K_IN:
#pragma omp task depend(inout : *a) depend(in : *b) firstprivate(t)
    task_body(t);
    break;
  case K_INOUT * 3 + K_OUT:
#pragma omp task depend(inout : *a) depend(out : *b) firstprivate(t)
    task_body(t);
    break;
  default:
#pragma omp task depend(inout : *a, *b) firstprivate(t)
    task_body(t);
    break;
  }
}

int main(void)
{
  graph_tasks();
  static const unsigned seeds[] = {1, 20240607, 987654321};
  for (int s = 0; s < 3; s++) {
    rng_state = seeds[s];
    for (int t = 0; t < ntask; t++)
      gen(t, 1 + (rnd() % 4 == 0), 3); /* mostly 1 dependence, a quarter with 2; in/out/inout */
    simulate();
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < ntask; t++)
      create(t);
    check_logs(seeds[s]);
  }
  return failures != 0;
}
