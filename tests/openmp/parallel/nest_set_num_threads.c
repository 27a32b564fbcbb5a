/* Checks that omp_set_num_threads inside a region changes only the calling thread's nthreads-var: thread t sets t+1 and its nested region (no clause) gets t+1 threads, while the sequential ICV is unchanged. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define O 3

int main(void)
{
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  omp_set_num_threads(2);
  for (int rep = 0; rep < 40; rep++) {
    int maxt[O] = {0}, cnt[O] = {0}, mask[O] = {0}, bad = 0;
#pragma omp parallel num_threads(O)
    {
      int t = omp_get_thread_num();
      if (t >= O) {
#pragma omp atomic
        bad++;
      } else {
        omp_set_num_threads(t + 1);
#pragma omp barrier
        maxt[t] = omp_get_max_threads();
#pragma omp parallel
        {
#pragma omp atomic
          cnt[t]++;
#pragma omp atomic
          mask[t] |= 1 << (omp_get_thread_num() & 15);
        }
      }
    }
    check(0, bad, "rep %d: out-of-range ids", rep);
    for (int t = 0; t < O; t++) {
      check(t + 1, maxt[t], "rep %d: omp_get_max_threads() in thread %d after set(%d)", rep, t, t + 1);
      check(t + 1, cnt[t], "rep %d: nested team size under thread %d", rep, t);
      check((1 << (t + 1)) - 1, mask[t], "rep %d: nested id mask under thread %d", rep, t);
    }
    check(2, omp_get_max_threads(), "rep %d: sequential omp_get_max_threads() unchanged", rep);
  }
  return failures != 0;
}
