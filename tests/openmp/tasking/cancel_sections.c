// Checks cancel sections (OMP_CANCELLATION=true): nothing after the cancel in its section runs, each section runs at most once, the region continues after the sections construct, and a later sections construct runs every section.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_sections.c"

#include "omp_check.h"

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  for (int r = 0; r < 10; r++) {
    int ran[4] = {0, 0, 0, 0}, after_cancel = 0, continued = 0, nthr = 1, later[3] = {0, 0, 0};
#pragma omp parallel shared(ran, after_cancel, continued, nthr, later)
    {
#pragma omp single
      nthr = omp_get_num_threads();
#pragma omp sections
      {
#pragma omp section
        {
#pragma omp atomic
          ran[0]++;
#pragma omp cancel sections
#pragma omp atomic
          after_cancel++;
        }
#pragma omp section
        {
#pragma omp atomic
          ran[1]++;
#pragma omp cancellation point sections
          spin(100);
        }
#pragma omp section
        {
#pragma omp atomic
          ran[2]++;
        }
#pragma omp section
        {
#pragma omp cancellation point sections
#pragma omp atomic
          ran[3]++;
        }
      }
#pragma omp atomic
      continued++;
#pragma omp sections
      {
#pragma omp section
        later[0]++;
#pragma omp section
        later[1]++;
#pragma omp section
        later[2]++;
      }
    }
    EXPECT(0, after_cancel, "round %d: statements after cancel sections", r);
    for (int s = 0; s < 4; s++)
      if (ran[s] > 1)
        EXPECT(1, ran[s], "round %d: section %d ran more than once", r, s);
    EXPECT(nthr, continued, "round %d: threads continuing after the cancelled sections", r);
    EXPECT(3, later[0] + later[1] + later[2], "round %d: sections of the uncancelled construct", r);
  }
  return failures != 0;
}
