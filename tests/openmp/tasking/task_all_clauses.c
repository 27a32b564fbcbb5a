// Checks tasks combining many clauses at once (if, final, untied, mergeable, priority, depend, firstprivate/private/shared, default) so every GOMP_task flag bit combination used here still yields correct results and ordering.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_all_clauses.c"

#include "omp_check.h"

static volatile int one = 1, zero = 0;

int main(void)
{
  int x = 0, seen[8];
  long acc = 0;
  memset(seen, -1, sizeof seen);
#pragma omp parallel shared(x, seen, acc)
#pragma omp single
  for (int r = 0; r < 50; r++) {
    int fp = r, pv = -5;
#pragma omp task if (one) final(zero) untied priority(0) depend(out : x) firstprivate(fp) private(pv) shared(x)
    {
      pv = fp * 2;
      x = pv;
    }
#pragma omp task if (one) final(one) mergeable depend(in : x) default(none) shared(x, seen)
    {
      seen[0] = x;
      seen[1] = omp_in_final();
    }
#pragma omp task if (zero) final(one) untied depend(inout : x) shared(x, seen)
    {
      seen[2] = x;
      x += 1;
    }
    /* undeferred: already done here */
    EXPECT(2 * r, seen[2], "round %d: if(0) final untied depend task ran after the writer", r);
#pragma omp task if (one) untied mergeable priority(0) depend(in : x) shared(x, acc)
    {
#pragma omp atomic
      acc += x;
    }
#pragma omp taskwait
    EXPECT(2 * r, seen[0], "round %d: final mergeable reader", r);
    EXPECT(1, seen[1] != 0, "round %d: omp_in_final() in final(one) task", r);
    EXPECT(-5, pv, "round %d: private original untouched", r);
  }
  EXPECT(2L * 49 * 50 / 2 + 50, acc, "sum seen by the last readers");
  return failures != 0;
}
