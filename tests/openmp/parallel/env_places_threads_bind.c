/* Checks OMP_PLACES=threads with OMP_PROC_BIND=spread (see .env): every thread of a team reports a place in [0, num_places) and is actually running on one of that place's processors (sched_getcpu). */
#define _GNU_SOURCE
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#include <sched.h>

int main(void)
{
  require_env("OMP_PLACES", "threads");
  require_env("OMP_PROC_BIND", "spread");
  omp_set_dynamic(0);
  int np = omp_get_num_places();
  check(1, np >= 1, "omp_get_num_places() >= 1 (got %d)", np);
  for (int rep = 0; rep < 20; rep++) {
    int bad_place = 0, off_place = 0, cnt = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp atomic
      cnt++;
      int pl = omp_get_place_num();
      if (pl < 0 || pl >= np) {
#pragma omp atomic
        bad_place++;
      } else {
        int n = omp_get_place_num_procs(pl);
        int ids[256];
        int cpu = sched_getcpu(), found = 0;
        if (n >= 1 && n <= 256) {
          omp_get_place_proc_ids(pl, ids);
          for (int i = 0; i < n; i++)
            found |= ids[i] == cpu;
        }
        if (!found) {
#pragma omp atomic
          off_place++;
        }
      }
    }
    check(3, cnt, "rep %d: team size", rep);
    check(0, bad_place, "rep %d: threads with a place number outside [0, num_places)", rep);
    check(0, off_place, "rep %d: threads running on a processor outside their place", rep);
  }
  return failures != 0;
}
