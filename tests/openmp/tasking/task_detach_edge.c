// Checks detach edge cases: a task fulfilling its own event in its body, an undeferred (if(0)) detached task fulfilled by its body, detached tasks inside a final task (fulfilled by their bodies), and 48 detached tasks fulfilled in scrambled order then waited for with taskwait.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_detach_edge.c"

#include "omp_check.h"

/* At most 64 * nthreads unfinished tasks: past that libgomp 12 runs new tasks undeferred, and an
   undeferred detached task waits for its fulfilment inside the construct, which here would only
   come later from the generating task (deadlock under libgomp with 1 thread and > ~65 tasks). */
#define MANY 48

int main(void)
{
  int self = 0, undeferred = 0, in_final = 0;
  static int many_ran[MANY];
  static omp_event_handle_t evs[MANY];
#pragma omp parallel shared(self, undeferred, in_final, many_ran, evs)
#pragma omp single
  {
    omp_event_handle_t ev = (omp_event_handle_t)0; /* set by the runtime at task creation */
#pragma omp task detach(ev) shared(self)
    {
      self = 1;
      omp_fulfill_event(ev); /* the task's own copy of the handle */
    }
#pragma omp taskwait
    EXPECT(1, self, "task that fulfilled its own event");

    /* undeferred: the encountering task resumes only after completion, i.e. after fulfilment */
    omp_event_handle_t ev2 = (omp_event_handle_t)0;
#pragma omp task detach(ev2) if (0) shared(undeferred)
    {
      undeferred = 1;
      omp_fulfill_event(ev2);
    }
    EXPECT(1, undeferred, "if(0) detached task fulfilled by its body");

    /* detached tasks inside a final task (included tasks) */
#pragma omp task final(1) shared(in_final)
    {
      omp_event_handle_t ev3 = (omp_event_handle_t)0;
#pragma omp task detach(ev3) shared(in_final)
      {
        in_final += 1;
        omp_fulfill_event(ev3);
      }
      EXPECT(1, in_final, "included detached task finished before its generator continued");
      /* Not tested: an included/undeferred detached task fulfilled by its generator afterwards.
         libgomp 12 waits for the fulfilment inside the task construct, so that deadlocks there. */
      omp_event_handle_t ev4 = (omp_event_handle_t)0;
#pragma omp task detach(ev4) shared(in_final)
      {
        in_final += 10;
        omp_fulfill_event(ev4);
      }
    }
#pragma omp taskwait
    EXPECT(11, in_final, "detached tasks inside a final task");

    for (int i = 0; i < MANY; i++) {
      omp_event_handle_t e = (omp_event_handle_t)0;
#pragma omp task detach(e) firstprivate(i) shared(many_ran)
      many_ran[i] = 1;
      evs[i] = e;
    }
    for (int i = 0; i < MANY; i++)
      omp_fulfill_event(evs[(i * 29) % MANY]); /* 29 is coprime with 48: a permutation */
#pragma omp taskwait
    int ran = 0;
    for (int i = 0; i < MANY; i++)
      ran += many_ran[i];
    EXPECT(MANY, ran, "detached tasks completed after scrambled fulfilment");
  }
  return failures != 0;
}
