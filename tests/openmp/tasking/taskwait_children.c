// Checks taskwait waits for all child tasks (their results are visible) but not for grandchildren: a grandchild detached task is fulfilled only after the taskwait returns, so a taskwait that waited for it would hang.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskwait_children.c"

#include "omp_check.h"

#define ROUNDS 50
#define KIDS 16

static int g_ran[ROUNDS];

int main(void)
{
  int bad = 0;
#pragma omp parallel shared(bad)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int done[KIDS];
    omp_event_handle_t gev = (omp_event_handle_t)0;
    for (int k = 0; k < KIDS; k++) {
      done[k] = 0;
#pragma omp task shared(done, gev) firstprivate(k, r)
      {
        if (k == 0) {
          omp_event_handle_t e = (omp_event_handle_t)0;
          /* grandchild of the single task: not covered by its taskwait */
#pragma omp task detach(e) firstprivate(r)
          g_ran[r] = 1;
          gev = e;
        }
        spin(300 * (k % 4));
        done[k] = 1;
      }
    }
#pragma omp taskwait
    for (int k = 0; k < KIDS; k++)
      if (done[k] != 1)
        bad++;
    omp_fulfill_event(gev); /* published by child 0, which has completed */
  }
  /* the barrier at the end of the region waited for every grandchild */
  EXPECT(0, bad, "children not finished after taskwait");
  int ran = 0;
  for (int r = 0; r < ROUNDS; r++)
    ran += g_ran[r];
  EXPECT(ROUNDS, ran, "detached grandchildren that ran by the end of the region");
  return failures != 0;
}
