// Checks taskloop lastprivate (value from the sequentially last iteration, also combined with firstprivate on the same variable, and with collapse(2)) and firstprivate of scalars and arrays per task.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_lastprivate.c"

#include "omp_check.h"

int main(void)
{
  int last = -1, both = 1000, lc = -1;
  long arr_sum_bad = 0;
  int base[64];
  int liv = -1;
#pragma omp parallel shared(last, both, lc, arr_sum_bad, base)
#pragma omp single
  {
#pragma omp taskloop lastprivate(last) grainsize(7)
    for (int i = 0; i < 100; i++)
      last = i * 3;
#pragma omp taskloop firstprivate(both) lastprivate(both) num_tasks(6)
    for (int i = 0; i < 60; i++)
      both = both + i; /* per-task running value starting at 1000 */
#pragma omp taskloop collapse(2) lastprivate(lc) grainsize(5)
    for (int i = 0; i < 9; i++)
      for (int j = 0; j < 7; j++)
        lc = i * 10 + j;
    for (int k = 0; k < 64; k++)
      base[k] = k * k;
    /* nogroup: the originals change while the tasks may still be pending */
#pragma omp taskloop firstprivate(base) grainsize(16) nogroup
    for (int i = 0; i < 256; i++) {
      if (base[i % 64] != (i % 64) * (i % 64)) {
#pragma omp atomic
        arr_sum_bad++;
      }
    }
    for (int k = 0; k < 64; k++)
      base[k] = -1;
#pragma omp taskwait
#pragma omp taskloop lastprivate(liv)
    for (liv = 0; liv < 77; liv++)
      ;
  }
  EXPECT(297, last, "lastprivate from iteration 99");
  EXPECT(1, both >= 1059 && both <= 1000 + 59 * 60 / 2, "firstprivate+lastprivate result (%d) within the last task's possible sums", both);
  EXPECT(86, lc, "collapse(2) lastprivate from (8,6)");
  EXPECT(0, arr_sum_bad, "firstprivate array contents captured when the taskloop was encountered");
  EXPECT(77, liv, "lastprivate loop variable after loop");
  return failures != 0;
}
