// Checks task if(0): the undeferred task's body completes before the encountering task continues (orphaned, in parallel, nested, with pending deferred siblings, runtime-false condition).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_if0_undeferred.c"

#include "omp_check.h"

static volatile int zero = 0; /* runtime false for if() */

int main(void)
{
  int done = 0;
#pragma omp task if (0) shared(done)
  done = 1;
  EXPECT(1, done, "orphaned if(0) task finished before encountering task continued");

  int per_thread_ok[64] = {0};
#pragma omp parallel shared(per_thread_ok)
  {
    int me = omp_get_thread_num() % 64;
    int local = 0;
    /* A deferred sibling that is still pending must not delay or replace the if(0) task. */
    int pending = 0;
#pragma omp task shared(pending)
    {
      spin(20000);
      pending = 1;
    }
#pragma omp task if (0) shared(local)
    {
      local = 10;
      int inner = 0;
#pragma omp task if (zero) shared(inner)
      inner = 5;
      EXPECT(5, inner, "nested if(0) task finished before its parent continued");
      local += inner;
    }
    EXPECT(15, local, "if(0) task with nested if(0) child finished before continuing");

    /* 1000 consecutive undeferred tasks, each visible immediately. */
    int counter = 0;
    for (int i = 0; i < 1000; i++) {
#pragma omp task if (zero) shared(counter)
      counter++;
      if (counter != i + 1) {
        EXPECT(i + 1, counter, "counter right after undeferred task %d", i);
        break;
      }
    }
    /* firstprivate capture still happens at creation time. */
    int v = 7, seen = 0;
#pragma omp task if (0) firstprivate(v) shared(seen)
    {
      seen = v;
      v = 100; /* modifies the task's copy only */
    }
    EXPECT(7, seen, "firstprivate value inside if(0) task");
    EXPECT(7, v, "original after if(0) task modified its firstprivate copy");
#pragma omp taskwait
    EXPECT(1, pending, "deferred sibling done after taskwait");
    per_thread_ok[me] = 1;
  }
  EXPECT(1, per_thread_ok[0], "master thread ran the region");
  return failures != 0;
}
