// Checks a randomized recursive task program against its serial result: nested tied and untied tasks, taskwait, taskgroups and tasks without a wait, where tied tasks hold omp_locks across their waits (descendants only take later locks, so only the task scheduling constraint for tied tasks keeps it from deadlocking); the tree, the values and the lock counters are compared with a serial run of the same recursion.
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_tsc_random.c"

#include "omp_check.h"

#define NLOCKS 4
#define MAXDEPTH 7

static omp_lock_t locks[NLOCKS];
static long lock_count[NLOCKS];   // increments made under each lock
static long unwaited;             // values of children nobody waited for
static long serial_lock_count[NLOCKS];
static long serial_unwaited;

static uint64_t mix(uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// What a node does, from its id alone.
struct plan {
  int nchildren; // 0..4
  int wait;      // 0 taskwait, 1 taskgroup, 2 none
  int lock;      // lock held across the wait, or -1
  int untied;    // this node's children are untied
};

static struct plan plan_of(uint64_t id, int depth, int min_lock)
{
  uint64_t h = mix(id);
  struct plan p;
  p.nchildren = depth >= MAXDEPTH ? 0 : (int)(h % 5);
  p.wait = (int)((h >> 8) % 3);
  p.untied = ((h >> 16) % 4) == 0;
  p.lock = -1;
  int l = min_lock + (int)((h >> 24) % 3);
  if (((h >> 32) % 3) == 0 && l < NLOCKS)
    p.lock = l;
  return p;
}

static long serial(uint64_t id, int depth, int min_lock)
{
  struct plan p = plan_of(id, depth, min_lock);
  long v = (long)(mix(id * 7 + 1) % 1000);
  int next_lock = p.lock >= 0 ? p.lock + 1 : min_lock;
  long sum = 0;
  for (int c = 0; c < p.nchildren; c++) {
    long cv = serial(id * 5 + (uint64_t)c + 1, depth + 1, next_lock);
    if (p.wait == 2)
      serial_unwaited += cv;
    else
      sum += cv;
  }
  if (p.lock >= 0)
    serial_lock_count[p.lock] += v;
  return v + sum;
}

static long node(uint64_t id, int depth, int min_lock, int tied);

static void child(uint64_t id, int depth, int lock, int wait, long *slot)
{
  long cv = node(id, depth, lock, 1);
  if (wait == 2)
    __atomic_add_fetch(&unwaited, cv, __ATOMIC_RELAXED);
  else
    *slot = cv;
}

// tied: whether this task is tied (only tied tasks hold a lock across a wait).
static long node(uint64_t id, int depth, int min_lock, int tied)
{
  struct plan p = plan_of(id, depth, min_lock);
  long v = (long)(mix(id * 7 + 1) % 1000);
  int lock = tied ? p.lock : -1;
  int next_lock = p.lock >= 0 ? p.lock + 1 : min_lock;
  long vals[4] = {0, 0, 0, 0};
  if (lock >= 0)
    omp_set_lock(&locks[lock]);
  if (p.wait == 1) {
#pragma omp taskgroup
    for (int c = 0; c < p.nchildren; c++) {
      if (p.untied) {
#pragma omp task untied firstprivate(c) shared(vals)
        vals[c] = node(id * 5 + (uint64_t)c + 1, depth + 1, next_lock, 0);
      } else {
#pragma omp task firstprivate(c) shared(vals)
        child(id * 5 + (uint64_t)c + 1, depth + 1, next_lock, 1, &vals[c]);
      }
    }
  } else {
    for (int c = 0; c < p.nchildren; c++) {
      uint64_t cid = id * 5 + (uint64_t)c + 1;
      if (p.wait == 2) {
        // Nobody waits: the child adds its own value to `unwaited`.
        if (p.untied) {
#pragma omp task untied firstprivate(cid, depth, next_lock)
          __atomic_add_fetch(&unwaited, node(cid, depth + 1, next_lock, 0), __ATOMIC_RELAXED);
        } else {
#pragma omp task firstprivate(cid, depth, next_lock)
          child(cid, depth + 1, next_lock, 2, NULL);
        }
      } else if (p.untied) {
#pragma omp task untied firstprivate(c, cid) shared(vals)
        vals[c] = node(cid, depth + 1, next_lock, 0);
      } else {
#pragma omp task firstprivate(c, cid) shared(vals)
        child(cid, depth + 1, next_lock, 0, &vals[c]);
      }
    }
    if (p.wait == 0) {
#pragma omp taskwait
    }
  }
  // Atomically even under the lock: an untied task with the same lock
  // index adds here without holding it (the serial run counts it either
  // way).
  if (p.lock >= 0)
    __atomic_add_fetch(&lock_count[p.lock], v, __ATOMIC_RELAXED);
  if (lock >= 0)
    omp_unset_lock(&locks[lock]);
  return v + vals[0] + vals[1] + vals[2] + vals[3];
}

int main(void)
{
  for (int i = 0; i < NLOCKS; i++)
    omp_init_lock(&locks[i]);
  for (uint64_t root = 1; root <= 24; root++) {
    memset(lock_count, 0, sizeof lock_count);
    memset(serial_lock_count, 0, sizeof serial_lock_count);
    unwaited = serial_unwaited = 0;
    long expect = serial(root * 1000003, 0, 0);
    long got = 0;
#pragma omp parallel shared(got)
#pragma omp single
    {
#pragma omp task shared(got)
      got = node(root * 1000003, 0, 0, 1);
    }
    EXPECT(expect, got, "tree %d: value", (int)root);
    EXPECT(serial_unwaited, unwaited, "tree %d: values nobody waited for", (int)root);
    for (int i = 0; i < NLOCKS; i++)
      EXPECT(serial_lock_count[i], lock_count[i], "tree %d: lock %d counter", (int)root, i);
  }
  for (int i = 0; i < NLOCKS; i++)
    omp_destroy_lock(&locks[i]);
  return failures != 0;
}
