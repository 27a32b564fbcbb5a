// Checks cancel parallel (OMP_CANCELLATION=true) discards the region's tasks that have not started: thread 0 creates 100 tasks of 2 ms each and cancels the region at once, so at most a few of them (those the other threads started meanwhile) run; tasks of the next, uncancelled region all run.
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

int main(void)
{
  EXPECT(1, omp_get_cancellation(), "omp_get_cancellation()");
  for (int r = 0; r < 3; r++) {
    int ran = 0, created = 0;
#pragma omp parallel shared(ran, created)
    {
      if (omp_get_thread_num() == 0) {
        for (int i = 0; i < TASKS; i++) {
#pragma omp task shared(ran)
          {
            sleep_ms(2);
#pragma omp atomic
            ran++;
          }
          created++;
        }
#pragma omp cancel parallel
      }
#pragma omp barrier
    }
    EXPECT(TASKS, created, "round %d: tasks created", r);
    /* Each other thread can have started a few 2 ms tasks while thread 0
       created the rest (microseconds); far fewer than half may run. */
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
