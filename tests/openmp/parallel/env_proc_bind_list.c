/* Checks OMP_PROC_BIND=spread,close with OMP_MAX_ACTIVE_LEVELS=2 (see .env): omp_get_proc_bind() is spread in the sequential part, close inside level-1 threads and still close (last list element) at level 2. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_PROC_BIND", "spread,close");
  omp_set_dynamic(0);
  check(omp_proc_bind_spread, omp_get_proc_bind(), "sequential omp_get_proc_bind()");
  for (int rep = 0; rep < 20; rep++) {
    int l1_bad = 0, l2_bad = 0, l1 = 0, l2 = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      l1++;
      if (omp_get_proc_bind() != omp_proc_bind_close) {
#pragma omp atomic
        l1_bad++;
      }
#pragma omp parallel num_threads(2)
      {
#pragma omp atomic
        l2++;
        if (omp_get_proc_bind() != omp_proc_bind_close) {
#pragma omp atomic
          l2_bad++;
        }
      }
    }
    check(2, l1, "rep %d: level-1 threads", rep);
    check(4, l2, "rep %d: level-2 threads", rep);
    check(0, l1_bad, "rep %d: level-1 threads whose omp_get_proc_bind() is not close", rep);
    check(0, l2_bad, "rep %d: level-2 threads whose omp_get_proc_bind() is not close", rep);
  }
  return failures != 0;
}
