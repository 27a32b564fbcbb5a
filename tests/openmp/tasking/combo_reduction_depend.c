// Checks in_reduction tasks that also carry depend clauses (a dependence chain of reducing tasks plus independent reducers), with taskloop in_reduction and a taskwait depend inside one taskgroup task_reduction.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "combo_reduction_depend.c"

#include "omp_check.h"

int main(void)
{
  long sum = 0;
  int order_bad = 0;
#pragma omp parallel shared(sum, order_bad)
#pragma omp single
  for (int r = 0; r < 20; r++) {
    int stage = 0;
    long before = sum;
#pragma omp taskgroup task_reduction(+ : sum)
    {
      for (int k = 0; k < 30; k++) {
        /* chain: each link must see the previous link's stage */
#pragma omp task in_reduction(+ : sum) depend(inout : stage) shared(stage, order_bad) firstprivate(k)
        {
          if (stage != k) {
#pragma omp atomic
            order_bad++;
          }
          stage = k + 1;
          sum += k;
        }
#pragma omp task in_reduction(+ : sum) firstprivate(k)
        sum += 1000;
      }
#pragma omp taskloop in_reduction(+ : sum) grainsize(5)
      for (int i = 0; i < 50; i++)
        sum += 2;
#pragma omp taskwait depend(in : stage)
      if (stage != 30) {
#pragma omp atomic
        order_bad += 100;
      }
    }
    EXPECT(before + 435 + 30000 + 100, sum, "round %d: reduction total", r);
  }
  EXPECT(0, order_bad, "chain tasks out of order or taskwait depend returning early");
  return failures != 0;
}
