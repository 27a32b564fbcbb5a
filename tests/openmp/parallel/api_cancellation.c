/* Checks omp_get_cancellation() matches OMP_CANCELLATION (false when unset) and, with cancellation disabled, that cancel parallel and cancellation points are no-ops: every thread runs past them. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <string.h>

int main(void)
{
  omp_set_dynamic(0);
  const char *env = getenv("OMP_CANCELLATION");
  int want = env && (strcmp(env, "true") == 0 || strcmp(env, "TRUE") == 0);
  check(want, omp_get_cancellation(), "omp_get_cancellation() (OMP_CANCELLATION %s)", env ? env : "unset");
  if (want)
    return failures != 0; /* the enabled case is env_cancellation.c */
  for (int rep = 0; rep < 50; rep++) {
    int after_cancel = 0, after_point = 0, bad = 0;
#pragma omp parallel num_threads(4)
    {
      if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
      }
#pragma omp barrier
#pragma omp atomic
      after_cancel++;
#pragma omp cancellation point parallel
#pragma omp atomic
      after_point++;
      if (omp_get_cancellation()) {
#pragma omp atomic
        bad++;
      }
    }
    check(4, after_cancel, "rep %d: threads past a disabled cancel parallel", rep);
    check(4, after_point, "rep %d: threads past a cancellation point", rep);
    check(0, bad, "rep %d: threads seeing cancellation enabled", rep);
  }
  return failures != 0;
}
