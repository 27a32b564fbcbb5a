/* Checks the OpenMP 2.5 lock routines, the OMP_1.0 versions that binaries built by GCC 4.2 and older call (bound here with .symver, as such a binary's references are): the 2.5 nest lock is GCC 4.2's 8-byte {owner, count} in the user's variable (nothing written around it), owned by a thread: nesting depths and omp_test_nest_lock's answers (the new depth to the owner, 0 to other threads, 1 when free), another thread's omp_set_nest_lock waiting for the holder, the same thread nesting it from two different tasks, and mutual exclusion under contention (a counter incremented by every thread under the lock, exact; also with the lock held long enough that waiters sleep); the simple lock at OMP_1.0 is the OMP_3.0 lock (one variable, either version). */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "omp_check.h"

/* GCC 4.2's omp.h: omp_lock_t is an int, omp_nest_lock_t {owner, count}. */
typedef struct {
  int owner, count;
} nest_lock_25;

#define OMP_1_0(ret, local, name)                                                                  \
  ret local(void *);                                                                               \
  __asm__(".symver " #local ", " #name "@OMP_1.0")
OMP_1_0(void, init_lock_25, omp_init_lock);
OMP_1_0(void, destroy_lock_25, omp_destroy_lock);
OMP_1_0(void, set_lock_25, omp_set_lock);
OMP_1_0(void, unset_lock_25, omp_unset_lock);
OMP_1_0(int, test_lock_25, omp_test_lock);
OMP_1_0(void, init_nest_lock_25, omp_init_nest_lock);
OMP_1_0(void, destroy_nest_lock_25, omp_destroy_nest_lock);
OMP_1_0(void, set_nest_lock_25, omp_set_nest_lock);
OMP_1_0(void, unset_nest_lock_25, omp_unset_nest_lock);
OMP_1_0(int, test_nest_lock_25, omp_test_nest_lock);

#define GUARD 0x5a5a5a5a
/* The lock between two guard words: a routine that writes more than the 8
   bytes of a 2.5 nest lock overwrites one. */
static struct {
  int before;
  nest_lock_25 l;
  int after;
} g = {GUARD, {-1, -1}, GUARD};

#define ITERS 20000
#define SLOW_ITERS 100
static volatile long counter;
static int inside, overlaps;

/* counter++ with a window between the read and the write: exact only if the
   lock excludes. */
static void exclusive_bump(void)
{
  if (__atomic_fetch_add(&inside, 1, __ATOMIC_RELAXED) != 0)
    __atomic_fetch_add(&overlaps, 1, __ATOMIC_RELAXED);
  long v = counter;
  for (volatile int k = 0; k < 20; k++)
    ;
  counter = v + 1;
  __atomic_fetch_sub(&inside, 1, __ATOMIC_RELAXED);
}

static void check_guards(const char *when)
{
  check(GUARD, g.before, "%s: the word before the 8-byte nest lock", when);
  check(GUARD, g.after, "%s: the word after the 8-byte nest lock", when);
}

int main(void)
{
  omp_set_dynamic(0);
  const int n = omp_get_max_threads() < 2 ? 2 : omp_get_max_threads();

  /* Nesting by one thread; the layout in the variable. */
  init_nest_lock_25(&g.l);
  check(0, g.l.owner, "after init: owner");
  check(0, g.l.count, "after init: count");
  for (int i = 1; i <= 3; i++) {
    set_nest_lock_25(&g.l);
    check(i, g.l.count, "count after %d omp_set_nest_lock", i);
  }
  check(1, g.l.owner != 0, "a held lock's owner is non-zero");
  check(4, test_nest_lock_25(&g.l), "omp_test_nest_lock by the owner after 3 sets");
  check(5, test_nest_lock_25(&g.l), "second omp_test_nest_lock by the owner");
  check(5, g.l.count, "count after 5 acquisitions");
  for (int i = 4; i >= 0; i--) {
    unset_nest_lock_25(&g.l);
    check(i, g.l.count, "count after an unset to depth %d", i);
  }
  check(0, g.l.owner, "after the last unset: owner");
  check_guards("nesting");

  /* Another thread is refused while the master holds it, and takes it once
     it is free. */
  int refused = -1, fresh = -1, refresh = -1;
#pragma omp parallel num_threads(n)
  {
#pragma omp master
    set_nest_lock_25(&g.l);
#pragma omp barrier
    if (omp_get_thread_num() == 1)
      refused = test_nest_lock_25(&g.l);
#pragma omp barrier
#pragma omp master
    unset_nest_lock_25(&g.l);
#pragma omp barrier
    if (omp_get_thread_num() == 1) {
      fresh = test_nest_lock_25(&g.l);
      refresh = test_nest_lock_25(&g.l);
      unset_nest_lock_25(&g.l);
      unset_nest_lock_25(&g.l);
    }
  }
  check(0, refused, "omp_test_nest_lock by a thread while another holds it");
  check(1, fresh, "omp_test_nest_lock by a thread on a free lock");
  check(2, refresh, "its second omp_test_nest_lock");
  check(0, g.l.owner, "after the other thread's unsets: owner");

  /* omp_set_nest_lock by another thread returns only once the holder has
     released it (the holder waits 50 ms first). */
  int released = 0, seen_released = -1;
#pragma omp parallel num_threads(n)
  {
#pragma omp master
    set_nest_lock_25(&g.l);
#pragma omp barrier
    if (omp_get_thread_num() == 1) {
      set_nest_lock_25(&g.l);
      seen_released = __atomic_load_n(&released, __ATOMIC_ACQUIRE);
      unset_nest_lock_25(&g.l);
    }
#pragma omp master
    {
      double t0 = omp_get_wtime();
      while (omp_get_wtime() - t0 < 0.05)
        ;
      __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
      unset_nest_lock_25(&g.l);
    }
  }
  check(1, seen_released, "omp_set_nest_lock by a thread returned after the holder released it");
  check(0, g.l.owner, "after the waiting thread's unset: owner");

  /* Owned by the thread, not the task: a task that the holder's task runs
     on the same thread (undeferred) nests it. Under OpenMP 3.0's task
     ownership the child would get 0 (or block in set). */
  int in_child = -1, child_set_count = -1, after_child = -1, in_task = -1;
#pragma omp parallel num_threads(n)
#pragma omp single
  {
#pragma omp task
    {
      set_nest_lock_25(&g.l);
      in_task = g.l.count;
#pragma omp task if (0)
      {
        in_child = test_nest_lock_25(&g.l);
        if (in_child > 0) {
          set_nest_lock_25(&g.l);
          child_set_count = g.l.count;
          unset_nest_lock_25(&g.l);
          unset_nest_lock_25(&g.l);
        }
      }
      after_child = g.l.count;
      unset_nest_lock_25(&g.l);
    }
#pragma omp taskwait
  }
  check(1, in_task, "count in the task that set it");
  check(2, in_child, "omp_test_nest_lock in an undeferred child task on the owner thread");
  check(3, child_set_count, "count after omp_set_nest_lock in that child");
  check(1, after_child, "count back in the parent task");
  check(0, g.l.owner, "after the tasks: owner");

  /* Mutual exclusion under contention, two deep. */
  counter = 0;
#pragma omp parallel num_threads(n)
  for (int i = 0; i < ITERS; i++) {
    set_nest_lock_25(&g.l);
    if (i % 2)
      set_nest_lock_25(&g.l);
    else
      while (!test_nest_lock_25(&g.l))
        ;
    exclusive_bump();
    unset_nest_lock_25(&g.l);
    unset_nest_lock_25(&g.l);
  }
  check((long long)n * ITERS, counter, "counter under the 2.5 nest lock (%d threads)", n);
  check(0, overlaps, "threads inside the 2.5 nest lock at once");

  /* Held long enough that the others stop spinning and sleep on it. */
  counter = 0;
#pragma omp parallel num_threads(n)
  for (int i = 0; i < SLOW_ITERS; i++) {
    set_nest_lock_25(&g.l);
    if (i % 4 == 0)
      usleep(300);
    exclusive_bump();
    unset_nest_lock_25(&g.l);
  }
  check((long long)n * SLOW_ITERS, counter, "counter under a 2.5 nest lock held for long");
  check(0, overlaps, "threads inside the long-held 2.5 nest lock at once");
  check(0, g.l.owner, "after the contention: owner");
  check(0, g.l.count, "after the contention: count");
  destroy_nest_lock_25(&g.l);
  check_guards("the end");

  /* The simple lock: OMP_1.0 and OMP_3.0 are one lock. */
  omp_lock_t lk;
  init_lock_25(&lk);
  set_lock_25(&lk);
  check(0, omp_test_lock(&lk), "omp_test_lock@OMP_3.0 on a lock held through OMP_1.0");
  unset_lock_25(&lk);
  check(1, omp_test_lock(&lk), "omp_test_lock@OMP_3.0 once unset through OMP_1.0");
  check(0, test_lock_25(&lk), "omp_test_lock@OMP_1.0 on a held lock");
  omp_unset_lock(&lk);
  counter = 0;
#pragma omp parallel num_threads(n)
  for (int i = 0; i < ITERS; i++) {
    if (i % 2)
      set_lock_25(&lk);
    else
      while (!test_lock_25(&lk))
        ;
    exclusive_bump();
    unset_lock_25(&lk);
  }
  check((long long)n * ITERS, counter, "counter under the OMP_1.0 simple lock (%d threads)", n);
  check(0, overlaps, "threads inside the OMP_1.0 simple lock at once");
  destroy_lock_25(&lk);

  if (!failures)
    printf("lock_omp25: ok\n");
  return failures != 0;
}
