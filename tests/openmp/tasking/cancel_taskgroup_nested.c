// Checks cancel taskgroup only affects the innermost taskgroup (OMP_CANCELLATION=true): outer-group tasks ordered after the inner cancel pass their cancellation points and finish, inner successors do not.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_taskgroup_nested.c"

#include "omp_check.h"

#define ROUNDS 40

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  int inner_passed = 0, outer_passed = 0, outer_children = 0;
#pragma omp parallel shared(inner_passed, outer_passed, outer_children)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int tok = 0;
    (void)tok;
#pragma omp taskgroup
    {
#pragma omp taskgroup
      {
#pragma omp task depend(out : tok)
        {
#pragma omp cancel taskgroup
        }
#pragma omp task depend(inout : tok) shared(inner_passed)
        {
#pragma omp cancellation point taskgroup
#pragma omp atomic
          inner_passed++;
        }
      }
      /* sibling of the tasks above (same parent) in the outer, uncancelled taskgroup */
#pragma omp task depend(in : tok) shared(outer_passed, outer_children)
      {
#pragma omp cancellation point taskgroup
#pragma omp atomic
        outer_passed++;
#pragma omp task shared(outer_children)
        {
#pragma omp cancellation point taskgroup
#pragma omp atomic
          outer_children++;
        }
      }
    }
  }
  EXPECT(0, inner_passed, "inner successors past the cancellation point");
  EXPECT(ROUNDS, outer_passed, "outer tasks that passed their cancellation point");
  EXPECT(ROUNDS, outer_children, "children of outer tasks that completed");
  return failures != 0;
}
