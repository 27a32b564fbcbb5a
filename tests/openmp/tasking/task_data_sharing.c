// Checks implicit and explicit data-sharing of tasks: locals are firstprivate by default, variables shared in the enclosing context stay shared, private copies are independent, default(shared)/default(none)/default(firstprivate).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_data_sharing.c"

#include "omp_check.h"

static int global_counter;

int main(void)
{
  int outer_shared = 0;
  int seen[6] = {0};
#pragma omp parallel shared(outer_shared, seen)
  {
#pragma omp single
    {
      int local = 5; /* private to the implicit task: firstprivate in the task by default */
#pragma omp task shared(seen)
      {
        seen[0] = local;
        local = 99; /* own copy */
      }
      local = 6;
#pragma omp task /* outer_shared is shared in the enclosing context: stays shared */
      {
#pragma omp atomic
        outer_shared += 10;
#pragma omp atomic
        global_counter += 1;
      }
      int p = 1234;
#pragma omp task private(p) shared(seen)
      {
        p = 1; /* uninitialised private copy, written before use */
        seen[1] = p + 1;
      }
      int fp = 77;
#pragma omp task default(none) firstprivate(fp) shared(seen)
      seen[2] = fp;
      fp = 78;
      int dfp = 11;
#pragma omp task default(firstprivate) shared(seen)
      {
        seen[3] = dfp;
        dfp = 0;
      }
      int dsh = 0;
#pragma omp task default(shared)
      dsh = 21;
#pragma omp taskwait
      EXPECT(5, seen[0], "default firstprivate local captured at creation");
      EXPECT(6, local, "original local unaffected by task's copy");
      EXPECT(2, seen[1], "private copy");
      EXPECT(1234, p, "original of private variable unchanged");
      EXPECT(77, seen[2], "firstprivate under default(none)");
      EXPECT(11, seen[3], "default(firstprivate)");
      EXPECT(11, dfp, "original under default(firstprivate)");
      EXPECT(21, dsh, "default(shared) writes the original");
    }
  }
  EXPECT(10, outer_shared, "shared variable from enclosing context");
  EXPECT(1, global_counter, "global is shared");
  return failures != 0;
}
