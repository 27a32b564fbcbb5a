// Checks taskgroup waits for all descendant tasks (children, grandchildren, great-grandchildren), unlike taskwait; nested taskgroups; a taskgroup inside a task.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskgroup_descendants.c"

#include "omp_check.h"

#define ROUNDS 40

static void spawn(int *flags, int depth, int idx)
{
  /* a binary tree of tasks; each leaf sets its flag after some work */
  if (depth == 0) {
    spin(200);
    __atomic_store_n(&flags[idx], 1, __ATOMIC_RELAXED);
    return;
  }
#pragma omp task firstprivate(depth, idx)
  spawn(flags, depth - 1, 2 * idx);
#pragma omp task firstprivate(depth, idx)
  spawn(flags, depth - 1, 2 * idx + 1);
  /* no taskwait: parents do not wait for their children */
}

int main(void)
{
  int bad = 0, bad_inner = 0, bad_in_task = 0;
#pragma omp parallel shared(bad, bad_inner, bad_in_task)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int flags[64], inner[8];
    memset(flags, 0, sizeof flags);
    memset(inner, 0, sizeof inner);
#pragma omp taskgroup
    {
#pragma omp task shared(flags)
      spawn(flags, 6, 0); /* 64 leaves at depth 6 below this child */
#pragma omp taskgroup
      {
#pragma omp task shared(inner)
        spawn(inner, 3, 0);
      }
      for (int i = 0; i < 8; i++)
        if (__atomic_load_n(&inner[i], __ATOMIC_RELAXED) != 1)
          bad_inner++;
    }
    for (int i = 0; i < 64; i++)
      if (__atomic_load_n(&flags[i], __ATOMIC_RELAXED) != 1)
        bad++;
    /* taskgroup inside an explicit task, covering its descendants only */
    int leaf[16];
    memset(leaf, 0, sizeof leaf);
#pragma omp task shared(leaf, bad_in_task)
    {
#pragma omp taskgroup
      spawn(leaf, 4, 0);
      for (int i = 0; i < 16; i++)
        if (__atomic_load_n(&leaf[i], __ATOMIC_RELAXED) != 1) {
#pragma omp atomic
          bad_in_task++;
        }
    }
#pragma omp taskwait
  }
  EXPECT(0, bad, "leaves not done after the outer taskgroup");
  EXPECT(0, bad_inner, "leaves not done after the nested taskgroup");
  EXPECT(0, bad_in_task, "leaves not done after a taskgroup inside a task");
  return failures != 0;
}
