// Checks cancel parallel (OMP_CANCELLATION=true) discards the region's tasks that have not started: thread 0 creates 100 tasks of 2 ms each and cancels the region at once, so at most a few of them (those the other threads started meanwhile, each held in its task until thread 0 is about to cancel) run; tasks of the next, uncancelled region all run.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NAME "cancel_parallel_tasks.c"

#include "omp_check.h"

#define TASKS 100

static void sleep_ms(int ms)
{
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* Set by thread 0 just before it cancels. A task another thread starts
   waits for it (up to 20 s), so that while thread 0 creates the tasks each
   other thread holds at most one of them, however long a loaded machine
   keeps thread 0 from running; a task on thread 0 itself (run in place)
   does not wait. */
static int go;

static void wait_for_go(void)
{
  if (omp_get_thread_num() == 0)
    return;
  double end = omp_get_wtime() + 20;
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE) && omp_get_wtime() < end) {
  }
}

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  for (int r = 0; r < 3; r++) {
    int ran = 0, created = 0;
    __atomic_store_n(&go, 0, __ATOMIC_RELAXED);
#pragma omp parallel shared(ran, created)
    {
      if (omp_get_thread_num() == 0) {
        for (int i = 0; i < TASKS; i++) {
#pragma omp task shared(ran)
          {
            wait_for_go();
            sleep_ms(2);
#pragma omp atomic
            ran++;
          }
          created++;
        }
        __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
#pragma omp cancel parallel
      }
#pragma omp barrier
    }
    EXPECT(TASKS, created, "round %d: tasks created", r);
    /* Each other thread can have started one task while thread 0 created
       the rest (it waits in it for go), and a few more between go and the
       cancel (nanoseconds, unless thread 0 is preempted right there); far
       fewer than half may run. */
    EXPECT(1, ran < TASKS / 2, "round %d: tasks run after cancel parallel (%d of %d) below half", r, ran, TASKS);

    int all = 0;
#pragma omp parallel shared(all)
#pragma omp single
    for (int i = 0; i < TASKS; i++) {
#pragma omp task shared(all)
      {
#pragma omp atomic
        all++;
      }
    }
    EXPECT(TASKS, all, "round %d: tasks of the next region", r);
  }
  return failures != 0;
}
