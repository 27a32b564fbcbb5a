// Checks that taskwait and taskgroup wait for a detached task's event to be fulfilled, when the fulfiller is another thread's implicit task or the detached task's own child (neither of which the wait itself covers); needs 2 threads.
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_detach_taskwait.c"

#include "omp_check.h"

#define ROUNDS 12

static int round_pub = -1;           /* round published by thread 0 (release/acquire) */
static omp_event_handle_t ev_pub;    /* event of that round */
static int fulfilled_round = -1;     /* set by thread 1 just before fulfilling */

int main(void)
{
  int bad_tw = 0, bad_tg = 0, bad_child = 0, team = 0;
#pragma omp parallel num_threads(2) shared(bad_tw, bad_tg, bad_child, team)
  {
#pragma omp single
    team = omp_get_num_threads();
    if (team == 2 && omp_get_thread_num() == 0) {
      for (int r = 0; r < ROUNDS; r++) {
        omp_event_handle_t ev = (omp_event_handle_t)0; /* set by the runtime at task creation */
        int x = 0;
        if (r % 2 == 0) {
#pragma omp task detach(ev) shared(x)
          x = 1;
          ev_pub = ev;
          __atomic_store_n(&round_pub, r, __ATOMIC_RELEASE);
#pragma omp taskwait
          if (__atomic_load_n(&fulfilled_round, __ATOMIC_ACQUIRE) != r)
            bad_tw++;
        } else {
#pragma omp taskgroup
          {
#pragma omp task detach(ev) shared(x)
            x = 1;
            ev_pub = ev;
            __atomic_store_n(&round_pub, r, __ATOMIC_RELEASE);
          }
          if (__atomic_load_n(&fulfilled_round, __ATOMIC_ACQUIRE) != r)
            bad_tg++;
        }
        EXPECT(1, x, "round %d: detached body ran", r);
      }
      __atomic_store_n(&round_pub, ROUNDS, __ATOMIC_RELEASE); /* stop thread 1 */
    } else if (team == 2) {
      int last = -1;
      for (;;) {
        int r;
        while ((r = __atomic_load_n(&round_pub, __ATOMIC_ACQUIRE)) == last)
          sched_yield(); /* waiting for thread 0 to publish: synchronisation, not timing */
        if (r == ROUNDS)
          break;
        omp_event_handle_t ev = ev_pub;
        spin(1000);
        __atomic_store_n(&fulfilled_round, r, __ATOMIC_RELEASE);
        omp_fulfill_event(ev);
        last = r;
      }
    }
#pragma omp barrier
    /* Fulfilment by the detached task's own child: taskwait waits for the detached task
       (which is complete only once fulfilled) but not for that child. */
#pragma omp single
    for (int r = 0; r < ROUNDS; r++) {
      int flag = 0;
      omp_event_handle_t ev = (omp_event_handle_t)0;
#pragma omp task detach(ev) shared(flag)
      {
#pragma omp task firstprivate(ev) shared(flag)
        {
          spin(1000);
          __atomic_store_n(&flag, 1, __ATOMIC_SEQ_CST);
          omp_fulfill_event(ev);
        }
      }
#pragma omp taskwait
      if (__atomic_load_n(&flag, __ATOMIC_SEQ_CST) != 1)
        bad_child++;
    }
  }
  EXPECT(2, team, "team size of parallel num_threads(2)");
  EXPECT(0, bad_tw, "rounds where taskwait returned before fulfilment by another thread");
  EXPECT(0, bad_tg, "rounds where taskgroup ended before fulfilment by another thread");
  EXPECT(0, bad_child, "rounds where taskwait returned before fulfilment by the task's child");
  return failures != 0;
}
