// Checks OpenMP's task scheduling constraint for tied tasks: a task that holds an omp_lock across a taskwait or the end of a taskgroup must not have a task that wants the same lock started under it on its thread (that would deadlock). The competing tasks are queued first with a priority (served before other ready tasks) and by other threads; a hang is caught by the test's time limit. Untied children still run, and every task runs exactly once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_tsc_lock.c"

#include "omp_check.h"

#define ROUNDS 300

static omp_lock_t lock;
static int inside;   // tasks inside the lock (checked to be 0 or 1)
static long held;    // sum of the holders' children, under the lock
static int ran[ROUNDS][3];

static void spin_us(double us)
{
  double end = omp_get_wtime() + us * 1e-6;
  while (omp_get_wtime() < end) {
  }
}

static void enter(void)
{
  omp_set_lock(&lock);
  int n = __atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED);
  EXPECT(1, n, "tasks inside the lock");
}

static void leave(void)
{
  __atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
  omp_unset_lock(&lock);
}

// Holds the lock across a scheduling point that waits for its children.
static void holder(int r)
{
  enter();
  long part = 0;
  if (r % 2 == 0) {
#pragma omp task shared(part) firstprivate(r)
    {
      spin_us(20);
      __atomic_add_fetch(&part, r, __ATOMIC_RELAXED);
      __atomic_add_fetch(&ran[r][1], 1, __ATOMIC_RELAXED);
    }
#pragma omp task untied shared(part) firstprivate(r)
    {
      __atomic_add_fetch(&part, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&ran[r][2], 1, __ATOMIC_RELAXED);
    }
#pragma omp taskwait
  } else {
#pragma omp taskgroup
    {
#pragma omp task shared(part) firstprivate(r)
      {
        // A grandchild in the group, left behind by its parent.
#pragma omp task shared(part) firstprivate(r)
        {
          spin_us(20);
          __atomic_add_fetch(&part, r, __ATOMIC_RELAXED);
          __atomic_add_fetch(&ran[r][1], 1, __ATOMIC_RELAXED);
        }
      }
#pragma omp task untied shared(part) firstprivate(r)
      {
        __atomic_add_fetch(&part, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&ran[r][2], 1, __ATOMIC_RELAXED);
      }
    }
  }
  EXPECT(r + 1, part, "round %d: children's sum before the unlock", r);
  held += part;
  leave();
}

// Wants the lock briefly.
static void competitor(int r)
{
  enter();
  spin_us(2);
  leave();
  __atomic_add_fetch(&ran[r][0], 1, __ATOMIC_RELAXED);
}

int main(void)
{
  omp_init_lock(&lock);
  EXPECT(5, omp_get_max_task_priority(), "omp_get_max_task_priority() (.env)");
#pragma omp parallel
#pragma omp single
  {
    for (int r = 0; r < ROUNDS; r++) {
      // Queued first, served first: without the constraint the holder's
      // thread would start it inside the holder's wait.
#pragma omp task priority(5) firstprivate(r)
      competitor(r);
      if (r % 3 == 0) {
        // Undeferred: the holder runs now, on this thread.
#pragma omp task if (0) firstprivate(r)
        holder(r);
      } else {
#pragma omp task firstprivate(r)
        holder(r);
      }
    }
  }
  long expect = 0;
  for (int r = 0; r < ROUNDS; r++) {
    expect += r + 1;
    EXPECT(1, ran[r][0], "round %d: competitor runs", r);
    EXPECT(1, ran[r][1], "round %d: tied child runs", r);
    EXPECT(1, ran[r][2], "round %d: untied child runs", r);
  }
  EXPECT(expect, held, "sum over the holders");
  omp_destroy_lock(&lock);
  return failures != 0;
}
