/* Checks omp_pause_resource_all/omp_pause_resource (soft and hard, host device) return, and that parallel regions, locks and nested regions work correctly after each pause. Return values are only printed: an implementation may refuse a pause. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

static void work(const char *after)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 20; rep++) {
    int cnt = 0, mask = 0;
    long sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
    {
#pragma omp atomic
      cnt++;
#pragma omp atomic
      mask |= 1 << (omp_get_thread_num() & 15);
#pragma omp for
      for (int i = 0; i < 1000; i++)
        sum += i;
#pragma omp barrier
    }
    check(4, cnt, "after %s rep %d: team size", after, rep);
    check(15, mask, "after %s rep %d: thread id mask", after, rep);
    check(499500, sum, "after %s rep %d: loop sum", after, rep);
  }
  omp_lock_t l;
  omp_init_lock(&l);
  long c = 0;
#pragma omp parallel num_threads(3)
  for (int i = 0; i < 500; i++) {
    omp_set_lock(&l);
    c++;
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  check(1500, c, "after %s: lock-protected counter", after);
}

int main(void)
{
  work("start");
  int r1 = omp_pause_resource_all(omp_pause_soft);
  work("omp_pause_resource_all(soft)");
  int r2 = omp_pause_resource(omp_pause_soft, omp_get_initial_device());
  work("omp_pause_resource(soft, host)");
  int r3 = omp_pause_resource_all(omp_pause_hard);
  work("omp_pause_resource_all(hard)");
  int r4 = omp_pause_resource(omp_pause_hard, omp_get_initial_device());
  work("omp_pause_resource(hard, host)");
  printf("pause results: all/soft %d host/soft %d all/hard %d host/hard %d\n", r1, r2, r3, r4);
  return failures != 0;
}
