/* Checks reduction(task, +: x) on a parallel construct (GOMP_parallel_reductions): contributions of the implicit tasks and of explicit tasks with in_reduction are all combined, for team sizes 1..4. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define NT 100

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 20; rep++) {
    for (int k = 1; k <= 4; k++) {
      long s = rep;
      long d = 0;
#pragma omp parallel num_threads(k) reduction(task, + : s) reduction(+ : d)
      {
        s += 1000 * (omp_get_thread_num() + 1); /* implicit-task contribution */
        d += 1;
#pragma omp single
        for (int i = 1; i <= NT; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
          s += i;
        }
      }
      check(k, d, "k=%d rep=%d: threads in team", k, rep);
      check(rep + 1000L * k * (k + 1) / 2 + NT * (NT + 1) / 2, s, "k=%d rep=%d: task reduction result", k, rep);
    }
  }
  return failures != 0;
}
