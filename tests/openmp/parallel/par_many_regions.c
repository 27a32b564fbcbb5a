/* Stresses team start/stop: 2000 back-to-back num_threads(4) regions plus 100 regions with the default team size; in every region each thread id runs exactly once and the region's work is complete when it returns. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define N 2000
#define M 100

static unsigned mask[N];
static int sum[N];
static int cnt2[M];
static unsigned mask2[M];

int main(void)
{
  omp_set_dynamic(0);
  for (int i = 0; i < N; i++) {
#pragma omp parallel num_threads(4)
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      mask[i] |= 1u << (t & 31);
#pragma omp atomic
      sum[i] += t + 1;
    }
    /* the region's writes are complete when it returns */
    check(15, mask[i], "region %d: thread id mask right after the region", i);
  }
  int def = omp_get_max_threads();
  if (def > 32)
    def = 32;
  for (int i = 0; i < M; i++) {
#pragma omp parallel
    {
#pragma omp atomic
      cnt2[i]++;
#pragma omp atomic
      mask2[i] |= 1u << (omp_get_thread_num() & 31);
    }
  }
  for (int i = 0; i < N; i++)
    check(10, sum[i], "region %d: sum of ids+1", i);
  for (int i = 0; i < M; i++) {
    check(def, cnt2[i], "default region %d: team size", i);
    check((long long)((def == 32) ? 0xffffffffu : ((1u << def) - 1)), mask2[i], "default region %d: id mask", i);
  }
  return failures != 0;
}
