// Checks mergeable tasks (plain, under final, if(0), and nested) produce correct results whether or not the runtime merges them; tasks only read their firstprivate data.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_mergeable.c"

#include "omp_check.h"

#define N 2000

int main(void)
{
  static long out[N];
  long total = 0;
  int big[256];
  for (int i = 0; i < 256; i++)
    big[i] = i;
#pragma omp parallel shared(out, total, big)
#pragma omp single
  {
    for (int i = 0; i < N; i++) {
      int mode = i % 4;
      long v = i * 3L;
      if (mode == 0) {
#pragma omp task mergeable firstprivate(v, i) shared(out)
        out[i] = v + 1;
      } else if (mode == 1) {
#pragma omp task mergeable final(1) firstprivate(v, i, big) shared(out)
        {
          long s = 0;
#pragma omp task mergeable shared(s) firstprivate(big)
          for (int k = 0; k < 256; k++)
            s += big[k];
          out[i] = v + 1 + (s - 256 * 255 / 2);
        }
      } else if (mode == 2) {
#pragma omp task mergeable if (0) firstprivate(v, i) shared(out)
        out[i] = v + 1;
      } else {
#pragma omp task mergeable untied firstprivate(v, i) shared(out, total)
        {
#pragma omp task mergeable firstprivate(v) shared(total)
          {
#pragma omp atomic
            total += v;
          }
          out[i] = v + 1;
        }
      }
    }
  }
  long expect_total = 0;
  for (int i = 0; i < N; i++) {
    if (i % 4 == 3)
      expect_total += i * 3L;
    if (out[i] != i * 3L + 1) {
      EXPECT(i * 3L + 1, out[i], "out[%d]", i);
      break;
    }
  }
  EXPECT(expect_total, total, "total from nested mergeable tasks");
  return failures != 0;
}
