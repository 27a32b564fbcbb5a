/* Checks OMP_CANCELLATION=true (see .env): omp_get_cancellation() is true; after thread 0 cancels the parallel region no thread gets past the following barrier (a cancellation point, GOMP_barrier_cancel) or a cancellation point; cancel with a false if clause cancels nothing; later regions run normally. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_CANCELLATION", "true");
  omp_set_dynamic(0);
  check(1, omp_get_cancellation(), "omp_get_cancellation()");
  for (int rep = 0; rep < 50; rep++) {
    int entered = 0, after_barrier = 0, after_point = 0, after_nocancel = 0, normal = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp atomic
      entered++;
      if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
      }
#pragma omp barrier
#pragma omp atomic
      after_barrier++;
    }
#pragma omp parallel num_threads(4)
    {
      if (omp_get_thread_num() == 1) {
#pragma omp cancel parallel
      }
#pragma omp cancellation point parallel
      /* thread 1 left at its cancel; others may or may not have seen it yet at the point above */
#pragma omp barrier
#pragma omp atomic
      after_point++;
    }
    int no = rep < 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp cancel parallel if (no)
#pragma omp barrier
#pragma omp atomic
      after_nocancel++;
    }
#pragma omp parallel num_threads(4)
    {
#pragma omp barrier
#pragma omp atomic
      normal++;
    }
    check(4, entered, "rep %d: threads that entered the cancelled region", rep);
    check(0, after_barrier, "rep %d: threads past the barrier after cancel parallel", rep);
    check(0, after_point, "rep %d: threads past cancellation point + barrier after cancel", rep);
    check(4, after_nocancel, "rep %d: threads past cancel parallel if(false)", rep);
    check(4, normal, "rep %d: threads in a later normal region", rep);
  }
  return failures != 0;
}
