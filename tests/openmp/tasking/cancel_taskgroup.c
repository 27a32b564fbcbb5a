// Checks cancel taskgroup (OMP_CANCELLATION=true): code after cancel never runs, tasks that start after the cancelling task completed never get past a 'cancellation point taskgroup', the taskgroup still ends, and later taskgroups run normally.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_taskgroup.c"

#include "omp_check.h"

#define ROUNDS 40
#define KIDS 20

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation() with OMP_CANCELLATION=true");
  int after_cancel = 0, passed = 0, full = 0, groups_done = 0;
#pragma omp parallel shared(after_cancel, passed, full, groups_done)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int tok = 0;
    (void)tok; /* dependence address only */
#pragma omp taskgroup
    {
      /* unrelated tasks created before the cancel: may run, be cut short, or be discarded */
      for (int k = 0; k < KIDS; k++) {
#pragma omp task
        {
          spin(500);
#pragma omp cancellation point taskgroup
          spin(500);
        }
      }
#pragma omp task depend(out : tok) shared(after_cancel)
      {
        spin(1000);
#pragma omp cancel taskgroup
#pragma omp atomic
        after_cancel++; /* unreachable when cancellation is enabled */
      }
      /* successors start only after the cancelling task completed, i.e. after activation */
      for (int k = 0; k < KIDS; k++) {
#pragma omp task depend(in : tok) shared(passed)
        {
#pragma omp cancellation point taskgroup
#pragma omp atomic
          passed++;
          /* a child created here would also belong to the cancelled taskgroup */
        }
      }
    }
    groups_done++;
    /* a fresh taskgroup is not cancelled */
#pragma omp taskgroup
    for (int k = 0; k < KIDS; k++) {
#pragma omp task shared(full)
      {
#pragma omp cancellation point taskgroup
#pragma omp atomic
        full++;
      }
    }
  }
  EXPECT(0, after_cancel, "statements executed after '#pragma omp cancel taskgroup'");
  EXPECT(0, passed, "tasks that got past a cancellation point after the taskgroup was cancelled");
  EXPECT(ROUNDS, groups_done, "cancelled taskgroups that completed");
  EXPECT(ROUNDS * KIDS, full, "tasks of the uncancelled taskgroups that ran to completion");
  return failures != 0;
}
