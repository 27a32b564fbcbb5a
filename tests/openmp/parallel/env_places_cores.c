/* Checks OMP_PLACES=cores with OMP_PROC_BIND=close (see .env): 1 <= omp_get_num_places() <= omp_get_num_procs(), every place has valid processor ids with no processor in two places, an out-of-range place has 0 processors, and in a bound team every thread has a place in range and a non-empty partition. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

#include <sched.h>
#include <unistd.h>

int main(void)
{
  require_env("OMP_PLACES", "cores");
  omp_set_dynamic(0);
  int np = omp_get_num_places(), nprocs = omp_get_num_procs();
  check(1, np >= 1 && np <= nprocs, "1 <= omp_get_num_places() <= %d (got %d)", nprocs, np);
  /* the initial thread may already be bound to place 0, so its affinity mask is no reference: use the CPU count */
  long ncpu = sysconf(_SC_NPROCESSORS_CONF);
  cpu_set_t used;
  CPU_ZERO(&used);
  for (int p = 0; p < np; p++) {
    int n = omp_get_place_num_procs(p);
    check(1, n >= 1 && n <= nprocs, "place %d has 1..%d processors (got %d)", p, nprocs, n);
    if (n < 1 || n > 1024)
      continue;
    int ids[1024];
    omp_get_place_proc_ids(p, ids);
    for (int i = 0; i < n; i++) {
      int id = ids[i];
      check(1, id >= 0 && id < CPU_SETSIZE && id < ncpu, "place %d processor id %d in [0, %ld)", p, id, ncpu);
      if (id < 0 || id >= CPU_SETSIZE)
        continue;
      check(0, CPU_ISSET(id, &used), "processor %d appears in more than one place", id);
      CPU_SET(id, &used);
    }
  }
  check(0, omp_get_place_num_procs(np), "omp_get_place_num_procs(num_places)");
  check(0, omp_get_place_num_procs(-1), "omp_get_place_num_procs(-1)");
  int bad_place = 0, bad_part = 0, cnt = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp atomic
    cnt++;
    int pl = omp_get_place_num();
    if (pl < 0 || pl >= np) {
#pragma omp atomic
      bad_place++;
    }
    int pn = omp_get_partition_num_places();
    int nums[64];
    if (pn < 1 || pn > np || pn > 64) {
#pragma omp atomic
      bad_part++;
    } else {
      omp_get_partition_place_nums(nums);
      for (int i = 0; i < pn; i++)
        if (nums[i] < 0 || nums[i] >= np) {
#pragma omp atomic
          bad_part++;
        }
    }
  }
  check(3, cnt, "team size");
  check(0, bad_place, "bound threads with a place number outside [0, num_places)");
  check(0, bad_part, "threads with a bad place partition");
  return failures != 0;
}
