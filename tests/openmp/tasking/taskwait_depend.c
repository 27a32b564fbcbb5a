// Checks '#pragma omp taskwait depend(...)' waits for the sibling tasks it depends on (writers of x, earlier readers for an out wait) but not for unrelated ones: an unrelated detached task is fulfilled only after the wait returns.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskwait_depend.c"

#include "omp_check.h"

#define ROUNDS 60

int main(void)
{
  int x = 0, y = 0;
  int bad_x = 0, bad_readers = 0, bad_unrelated = 0;
#pragma omp parallel shared(x, y, bad_x, bad_readers, bad_unrelated)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int y_done = 0;
    omp_event_handle_t ev = (omp_event_handle_t)0; /* set by the runtime at task creation */
    /* unrelated task: cannot complete until we fulfil its event after the waits below;
       a taskwait depend that waited for it would never return */
#pragma omp task detach(ev) depend(out : y) shared(y, y_done)
    {
      y = r;
      y_done = 1;
    }
#pragma omp task depend(out : x) shared(x)
    {
      spin(3000);
      x = r + 1;
    }
#pragma omp taskwait depend(in : x)
    if (x != r + 1)
      bad_x++;
    /* readers of x: a taskwait with out on x must wait for them too (anti-dependence) */
    int readers_done = 0;
    for (int k = 0; k < 4; k++) {
#pragma omp task depend(in : x) shared(x, readers_done)
      {
        spin(1000 * (k + 1));
        if (x == r + 1) {
#pragma omp atomic
          readers_done++;
        }
      }
    }
#pragma omp taskwait depend(out : x)
    int rd;
#pragma omp atomic read
    rd = readers_done;
    if (rd != 4)
      bad_readers++;
    omp_fulfill_event(ev);
#pragma omp taskwait depend(inout : y)
    if (y != r || y_done != 1)
      bad_unrelated++;
  }
  EXPECT(0, bad_x, "rounds where taskwait depend(in: x) returned before x's writer finished");
  EXPECT(0, bad_readers, "rounds where taskwait depend(out: x) returned before x's readers finished");
  EXPECT(0, bad_unrelated, "rounds where taskwait depend(inout: y) returned before the fulfilled y task finished");
  return failures != 0;
}
