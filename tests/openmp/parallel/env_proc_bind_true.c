/* Checks OMP_PROC_BIND=true (see .env): omp_get_proc_bind() is not false, bound threads report a place number in [-1, num_places), and teams of 3 and 6 still run each id once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_PROC_BIND", "true");
  omp_set_dynamic(0);
  check(1, omp_get_proc_bind() != omp_proc_bind_false, "omp_get_proc_bind() != false (got %d)", (int)omp_get_proc_bind());
  int np = omp_get_num_places();
  check(1, np >= 0, "omp_get_num_places() >= 0 (got %d)", np);
  for (int rep = 0; rep < 30; rep++) {
    for (int k = 3; k <= 6; k += 3) {
      int cnt = 0, mask = 0, bad_place = 0;
#pragma omp parallel num_threads(k)
      {
#pragma omp atomic
        cnt++;
#pragma omp atomic
        mask |= 1 << (omp_get_thread_num() & 15);
        int pl = omp_get_place_num();
        if (pl < -1 || pl >= np) {
#pragma omp atomic
          bad_place++;
        }
      }
      check(k, cnt, "rep %d: team size", rep);
      check((1 << k) - 1, mask, "rep %d: thread id mask", rep);
      check(0, bad_place, "rep %d: threads with an out-of-range place number", rep);
    }
  }
  return failures != 0;
}
