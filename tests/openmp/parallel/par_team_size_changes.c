/* Stresses team resizing: 120 back-to-back regions whose sizes cycle through 1, 4, 2, 8, 3 (growing and shrinking the pool every time); every region runs each thread id 0..k-1 exactly once. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define N 120

static unsigned mask[N];
static int sum[N];

int main(void)
{
  omp_set_dynamic(0);
  static const int sizes[5] = {1, 4, 2, 8, 3};
  for (int i = 0; i < N; i++) {
#pragma omp parallel num_threads(sizes[i % 5])
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      mask[i] |= 1u << (t & 31);
#pragma omp atomic
      sum[i] += t + 1;
    }
  }
  for (int i = 0; i < N; i++) {
    int k = sizes[i % 5];
    check((1 << k) - 1, mask[i], "region %d (num_threads(%d)): thread id mask", i, k);
    check(k * (k + 1) / 2, sum[i], "region %d (num_threads(%d)): sum of ids+1", i, k);
  }
  return failures != 0;
}
