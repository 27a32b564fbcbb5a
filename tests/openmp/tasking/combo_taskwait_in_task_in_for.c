// Checks a parallel for whose iterations create tasks that create subtasks and taskwait on them (plus a taskgroup per iteration), with results checked per iteration.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "combo_taskwait_in_task_in_for.c"

#include "omp_check.h"

#define N 200
#define SUB 8

int main(void)
{
  static long res[N], res2[N];
  int bad = 0;
#pragma omp parallel shared(res, res2, bad)
  {
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) shared(res, bad)
      {
        long parts[SUB];
        for (int k = 0; k < SUB; k++) {
#pragma omp task shared(parts) firstprivate(i, k)
          {
            spin(100);
            parts[k] = (long)i * SUB + k;
          }
        }
#pragma omp taskwait
        long s = 0;
        for (int k = 0; k < SUB; k++)
          s += parts[k];
        res[i] = s;
        if (s != (long)i * SUB * SUB + SUB * (SUB - 1) / 2) {
#pragma omp atomic
          bad++;
        }
      }
      /* a taskgroup in the loop body covering a task's own children */
#pragma omp taskgroup
      {
#pragma omp task firstprivate(i) shared(res2)
        {
#pragma omp task firstprivate(i) shared(res2)
          res2[i] = i * 2;
        }
      }
      if (res2[i] != i * 2) {
#pragma omp atomic
        bad += 1000;
      }
    }
  }
  long total = 0;
  for (int i = 0; i < N; i++)
    total += res[i];
  long expect = 0;
  for (int i = 0; i < N; i++)
    expect += (long)i * SUB * SUB + SUB * (SUB - 1) / 2;
  EXPECT(0, bad, "per-iteration mismatches");
  EXPECT(expect, total, "sum of iteration results");
  return failures != 0;
}
