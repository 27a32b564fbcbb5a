// Checks taskloop if(0) (undeferred tasks), final(1) (generated tasks are final: omp_in_final() true and tasks they create are included), and untied and mergeable taskloops.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_if0_final.c"

#include "omp_check.h"

static volatile int zero = 0;

int main(void)
{
  static int hit[500];
  int in_final_bad = 0, included_bad = 0, final_seen = 0;
  long s_untied = 0;
#pragma omp parallel shared(hit, in_final_bad, included_bad, final_seen, s_untied)
#pragma omp single
  {
#pragma omp taskloop if (zero) grainsize(10)
    for (int i = 0; i < 500; i++)
      hit[i]++;
#pragma omp taskloop final(1) num_tasks(8)
    for (int i = 0; i < 64; i++) {
      if (!omp_in_final()) {
#pragma omp atomic
        in_final_bad++;
      }
      int c = 0;
#pragma omp task shared(c)
      c = 1;
      /* included: done without a taskwait */
      if (c != 1) {
#pragma omp atomic
        included_bad++;
      }
#pragma omp atomic
      final_seen++;
    }
#pragma omp taskloop untied reduction(+ : s_untied) grainsize(3)
    for (int i = 0; i < 300; i++) {
#pragma omp taskyield
      s_untied += i;
    }
#pragma omp taskloop mergeable grainsize(7)
    for (int i = 0; i < 500; i++)
      hit[i] += 2;
  }
  int bad = 0;
  for (int i = 0; i < 500; i++)
    bad += hit[i] != 3;
  EXPECT(0, bad, "iterations of the if(0) and mergeable taskloops not run exactly once each");
  EXPECT(64, final_seen, "final taskloop iterations");
  EXPECT(0, in_final_bad, "iterations of final(1) taskloop where omp_in_final() was false");
  EXPECT(0, included_bad, "tasks inside final taskloop not included");
  EXPECT(44850, s_untied, "untied taskloop reduction");
  return failures != 0;
}
