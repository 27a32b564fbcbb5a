// Checks cancel taskgroup inside taskgroups opened by the iterations of a parallel for (OMP_CANCELLATION=true): only the cancelling iteration's group is affected, its dependent successors never pass a cancellation point, other iterations complete fully.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "combo_cancel_in_for_taskgroups.c"

#include "omp_check.h"

#define N 60
#define KIDS 6

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  static int passed[N], full[N], after_cancel[N];
#pragma omp parallel
#pragma omp for schedule(dynamic)
  for (int i = 0; i < N; i++) {
    int tok = 0;
    (void)tok;
    int cancel_this = (i % 3 == 0);
#pragma omp taskgroup
    {
#pragma omp task depend(out : tok) firstprivate(i, cancel_this)
      {
        spin(200);
        if (cancel_this) {
#pragma omp cancel taskgroup
          __atomic_fetch_add(&after_cancel[i], 1, __ATOMIC_RELAXED);
        }
      }
      for (int k = 0; k < KIDS; k++) {
#pragma omp task depend(in : tok) firstprivate(i)
        {
#pragma omp cancellation point taskgroup
          __atomic_fetch_add(&passed[i], 1, __ATOMIC_RELAXED);
#pragma omp task firstprivate(i)
          __atomic_fetch_add(&full[i], 1, __ATOMIC_RELAXED);
        }
      }
    }
  }
  int bad_cancelled = 0, bad_full = 0, bad_after = 0;
  for (int i = 0; i < N; i++) {
    bad_after += after_cancel[i];
    if (i % 3 == 0)
      bad_cancelled += passed[i];
    else
      bad_full += (passed[i] != KIDS) + (full[i] != KIDS);
  }
  EXPECT(0, bad_after, "statements executed after cancel taskgroup");
  EXPECT(0, bad_cancelled, "successors in cancelled groups past the cancellation point");
  EXPECT(0, bad_full, "uncancelled groups with missing work");
  return failures != 0;
}
