// Checks detach + omp_fulfill_event: a successor (depend) of a detached task does not start before the event is fulfilled, even after the detached body finished; fulfilment from a sibling task, from the generating task and from the body itself.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_detach_depend.c"

#include "omp_check.h"

#define ROUNDS 60

int main(void)
{
  int x = 0;
#pragma omp parallel shared(x)
#pragma omp single
  {
    for (int r = 0; r < ROUNDS; r++) {
      int fulfilled = 0, body_done = 0, seen_f = -1, seen_b = -1;
      omp_event_handle_t ev;
      int mode = r % 3;
#pragma omp task detach(ev) depend(out : x) shared(x, body_done)
      {
        x = r;
        __atomic_store_n(&body_done, 1, __ATOMIC_SEQ_CST);
      }
      /* successor: may only start after the detached task completed, i.e. after fulfilment */
#pragma omp task depend(in : x) shared(x, fulfilled, seen_f, seen_b, body_done)
      {
        seen_f = __atomic_load_n(&fulfilled, __ATOMIC_SEQ_CST);
        seen_b = __atomic_load_n(&body_done, __ATOMIC_SEQ_CST);
      }
      if (mode == 0) {
        /* fulfilled by an independent sibling after some work */
#pragma omp task firstprivate(ev) shared(fulfilled)
        {
          spin(20000);
          __atomic_store_n(&fulfilled, 1, __ATOMIC_SEQ_CST);
          omp_fulfill_event(ev);
        }
#pragma omp taskwait
      } else if (mode == 1) {
        /* fulfilled by the generating task itself, possibly before the body even ran */
        spin(5000);
        __atomic_store_n(&fulfilled, 1, __ATOMIC_SEQ_CST);
        omp_fulfill_event(ev);
#pragma omp taskwait
      } else {
        /* fulfilled by a task that waits (via dependence on another variable) for a token */
        int token = 0;
#pragma omp task depend(out : token) shared(token)
        {
          spin(10000);
          token = 1;
        }
#pragma omp task depend(in : token) firstprivate(ev) shared(fulfilled, token)
        {
          if (token == 1)
            __atomic_store_n(&fulfilled, 1, __ATOMIC_SEQ_CST);
          omp_fulfill_event(ev);
        }
#pragma omp taskwait
      }
      EXPECT(1, seen_f, "round %d mode %d: successor saw fulfilment done", r, mode);
      EXPECT(1, seen_b, "round %d mode %d: successor saw detached body done", r, mode);
      EXPECT(r, x, "round %d: x", r);
    }

    /* A chain of detached tasks fulfilled by the generating task in reverse order:
       fulfilling a later event early must not let its task complete before its predecessors. */
    omp_event_handle_t evs[16];
    int order[16], pos = 0;
    for (int k = 0; k < 16; k++) {
      omp_event_handle_t e;
#pragma omp task detach(e) depend(inout : x) shared(order, pos) firstprivate(k)
      order[pos++] = k;
      evs[k] = e; /* the handle is set when the task is created */
    }
    int after = -1;
#pragma omp task depend(in : x) shared(pos, after)
    after = pos;
    for (int k = 15; k >= 0; k--)
      omp_fulfill_event(evs[k]);
#pragma omp taskwait
    EXPECT(16, pos, "detached chain length");
    EXPECT(16, after, "reader after detached chain saw all writers");
    for (int k = 0; k < 16 && k < pos; k++)
      EXPECT(k, order[k], "detached chain position %d", k);
  }
  return failures != 0;
}
