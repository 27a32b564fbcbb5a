// Checks final: omp_in_final() is true in a final task and in its descendants, and descendants of a final task are included (complete before the generating task continues).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_final_included.c"

#include "omp_check.h"

static volatile int one = 1;

int main(void)
{
  int results[8] = {0};
#pragma omp parallel shared(results)
#pragma omp single
  {
    EXPECT(0, omp_in_final(), "omp_in_final() in implicit task");
#pragma omp task final(1) shared(results)
    {
      results[0] = omp_in_final();
      int c = 0;
      for (int i = 0; i < 100; i++) {
#pragma omp task shared(c, results)
        {
          c++;
          if (!omp_in_final())
            results[1] = -1;
        }
        if (c != i + 1) {
          EXPECT(i + 1, c, "included child %d completed before generating task continued", i);
          break;
        }
      }
      int g = 0, g2 = 0;
#pragma omp task shared(g, g2)
      {
#pragma omp task shared(g)
        g = omp_in_final() ? 2 : 1;
        g2 = g; /* grandchild is included, so already done */
      }
      results[2] = g2;
      /* A deferred-looking task with a depend clause inside a final task is still included. */
      int d = 0;
#pragma omp task depend(out : d) shared(d)
      d = 3;
      results[3] = d;
    }
#pragma omp task final(0) shared(results)
    results[4] = omp_in_final() ? 1 : 2;
#pragma omp task final(one > 0) shared(results)
    results[5] = omp_in_final();
#pragma omp taskwait
  }
  EXPECT(1, results[0] != 0, "omp_in_final() inside final task");
  EXPECT(0, results[1], "omp_in_final() inside children of final task");
  EXPECT(2, results[2], "grandchild of final task included and final");
  EXPECT(3, results[3], "child with depend inside final task included");
  EXPECT(2, results[4], "omp_in_final() inside final(0) task is false");
  EXPECT(1, results[5] != 0, "omp_in_final() inside final(runtime true) task");
  return failures != 0;
}
