// Checks the task scheduling constraint for tied tasks directly: a thread whose tied task is suspended (taskwait, end of a taskgroup, task creation) starts only that task's descendants. Each task carries its ancestors' ids; each thread keeps the stack of its tied tasks that have started and not ended; every task that starts checks that each of them is its ancestor. Independent random trees (so plenty of non-descendants, some prioritised to be served first), tied and untied nodes, grandchildren left in taskgroups by their parents; the tree's sum is checked against a serial run, and the check must have seen tasks start inside waits.
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_tsc_refusal.c"

#include "omp_check.h"

#define TREES 32
#define MAXDEPTH 7
#define MAXWAIT 64

// A middle task per level at most, and the root.
struct path {
  int n;
  uint64_t id[2 * MAXDEPTH + 2];
};

// This thread's tied tasks that started and have not ended, innermost last:
// any task that starts on it meanwhile does so at a scheduling point of
// each of them.
static uint64_t waiting[MAXWAIT];
static int nwaiting;
#pragma omp threadprivate(waiting, nwaiting)

static long started_inside; // tasks started above a waiting tied task
static long violations;     // of those, ones not descending from it
static long sums[TREES];

static uint64_t mix(uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

static int nchildren(uint64_t id, int depth) { return depth >= MAXDEPTH ? 0 : (int)(mix(id) % 3) + (depth < 3); }
static int waits_in_group(uint64_t id) { return (mix(id) >> 8) % 2; }
static int untied_children(uint64_t id) { return (mix(id) >> 16) % 4 == 0; }

static long serial(uint64_t id, int depth)
{
  long s = (long)(mix(id * 3 + 1) % 100);
  for (int c = 0; c < nchildren(id, depth); c++)
    s += serial(id * 4 + (uint64_t)c + 1, depth + 1);
  return s;
}

static void on_start(const struct path *p)
{
  if (nwaiting == 0)
    return;
  __atomic_add_fetch(&started_inside, 1, __ATOMIC_RELAXED);
  for (int w = 0; w < nwaiting; w++) {
    int found = 0;
    for (int a = 0; a < p->n && !found; a++)
      found = p->id[a] == waiting[w];
    if (!found && __atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED) < 5)
      fprintf(stderr, "task %llu started while task %llu, not its ancestor, waits on thread %d\n",
              (unsigned long long)p->id[p->n - 1], (unsigned long long)waiting[w],
              omp_get_thread_num());
  }
}

static void tied_begin(uint64_t id, int tied)
{
  if (!tied)
    return;
  if (nwaiting == MAXWAIT) {
    fprintf(stderr, "FAIL " NAME ": more than %d nested tied tasks on one thread\n", MAXWAIT);
    abort();
  }
  waiting[nwaiting++] = id;
}

static void tied_end(int tied)
{
  if (tied)
    nwaiting--;
}

// p: the node's ancestors and itself (last).
static void node(struct path p, int depth, int tied, long *sum)
{
  on_start(&p);
  uint64_t id = p.id[p.n - 1];
  tied_begin(id, tied);
  int n = nchildren(id, depth);
  int untied = untied_children(id);
  long part[4] = {0, 0, 0, 0};
  if (waits_in_group(id)) {
#pragma omp taskgroup
    for (int c = 0; c < n; c++) {
      uint64_t cid = id * 4 + (uint64_t)c + 1;
      struct path q = p;
      q.id[q.n++] = cid | (1ull << 63);
      // A middle task that leaves the child to the group.
#pragma omp task firstprivate(q, cid, depth, c) shared(part)
      {
        on_start(&q);
        tied_begin(q.id[q.n - 1], 1);
        struct path r = q;
        r.id[r.n++] = cid;
#pragma omp task firstprivate(r, depth, c) shared(part)
        node(r, depth + 1, 1, &part[c]);
        tied_end(1);
      }
    }
  } else {
    for (int c = 0; c < n; c++) {
      struct path q = p;
      q.id[q.n++] = id * 4 + (uint64_t)c + 1;
      if (untied) {
#pragma omp task untied firstprivate(q, depth, c) shared(part)
        node(q, depth + 1, 0, &part[c]);
      } else {
#pragma omp task firstprivate(q, depth, c) shared(part)
        node(q, depth + 1, 1, &part[c]);
      }
    }
#pragma omp taskwait
  }
  // Busy a little, so that waits overlap with other trees' tasks.
  for (volatile int i = 0; i < 200; i++) {
  }
  *sum = (long)(mix(id * 3 + 1) % 100) + part[0] + part[1] + part[2] + part[3];
  tied_end(tied);
}

int main(void)
{
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < TREES; t++) {
    struct path p = {1, {(uint64_t)(t + 1) * 1000003}};
#pragma omp task firstprivate(p, t) priority(t % 2 ? 5 : 0)
    node(p, 0, 1, &sums[t]);
  }
  for (int t = 0; t < TREES; t++)
    EXPECT(serial((uint64_t)(t + 1) * 1000003, 0), sums[t], "tree %d: sum", t);
  EXPECT(0, violations, "tasks started inside a tied task's wait that do not descend from it");
  if (started_inside == 0)
    EXPECT(1, 0, "some task started inside a wait (else nothing was checked)");
  return failures != 0;
}
