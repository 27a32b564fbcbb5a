// Checks cancel taskgroup inside a taskloop body (OMP_CANCELLATION=true): the cancelling task executes no iteration after the cancelling one, the taskloop ends, and a following uncancelled taskloop runs every iteration.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "cancel_taskloop.c"

#include "omp_check.h"

#define N 400
#define MAXT 512
#define CANCEL_AT 123

static int task_count;
static int trace_len[MAXT];
static int trace[MAXT][N];

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  static int hit[N];
  int after_cancel = 0;
  for (int round = 0; round < 5; round++) {
    task_count = 0;
    memset(trace_len, 0, sizeof trace_len);
    memset(hit, 0, sizeof hit);
    int id = -1;
#pragma omp parallel shared(after_cancel, hit)
#pragma omp single
    {
#pragma omp taskloop grainsize(10) firstprivate(id)
      for (int i = 0; i < N; i++) {
        if (id < 0)
          id = __atomic_fetch_add(&task_count, 1, __ATOMIC_RELAXED);
        if (id < MAXT)
          trace[id][trace_len[id]++] = i;
        if (i == CANCEL_AT) {
#pragma omp cancel taskgroup
#pragma omp atomic
          after_cancel++;
        }
#pragma omp cancellation point taskgroup
        spin(200);
      }
      /* not cancelled: every iteration runs */
#pragma omp taskloop grainsize(10)
      for (int i = 0; i < N; i++) {
#pragma omp cancellation point taskgroup
        hit[i]++;
      }
    }
    int owner = -1, pos = -1;
    for (int t = 0; t < task_count && t < MAXT; t++)
      for (int k = 0; k < trace_len[t]; k++)
        if (trace[t][k] == CANCEL_AT) {
          owner = t;
          pos = k;
        }
    if (owner >= 0)
      EXPECT(pos + 1, trace_len[owner], "round %d: iterations executed by the cancelling task up to and including %d", round, CANCEL_AT);
    int bad = 0;
    for (int i = 0; i < N; i++)
      bad += hit[i] != 1;
    EXPECT(0, bad, "round %d: iterations of the uncancelled taskloop not run once", round);
  }
  EXPECT(0, after_cancel, "statements executed after cancel taskgroup");
  return failures != 0;
}
