// Checks 10000-deep recursion of tasks that are included (final) and undeferred (if(0)): every level runs, in order, before its parent continues; orphaned and in parallel.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_final_deep.c"

#include "omp_check.h"

#define DEPTH 10000

static int reached_final, reached_if0;
static int order_errors;

static void rec_final(int d)
{
  if (!omp_in_final())
    __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
  if (d == DEPTH) {
    reached_final = d;
    return;
  }
#pragma omp task firstprivate(d)
  rec_final(d + 1);
  /* the included child (and its whole subtree) has finished */
  if (reached_final != DEPTH)
    __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
}

static void rec_if0(int d)
{
  if (d == DEPTH) {
    reached_if0 = d;
    return;
  }
#pragma omp task if (0) firstprivate(d)
  rec_if0(d + 1);
  if (reached_if0 != DEPTH)
    __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
}

static void run(const char *where)
{
  reached_final = reached_if0 = 0;
  order_errors = 0;
#pragma omp task final(1) /* the final task itself may be deferred; its descendants are included */
  rec_final(1);
#pragma omp taskwait
  EXPECT(DEPTH, reached_final, "%s: depth reached by final chain before continuing", where);
#pragma omp task if (0) /* undeferred: finished when the construct completes */
  rec_if0(1);
  EXPECT(DEPTH, reached_if0, "%s: depth reached by if(0) chain before continuing", where);
  EXPECT(0, order_errors, "%s: levels not in final or finishing out of order", where);
}

int main(void)
{
  run("orphaned");
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    run("in parallel");
#pragma omp taskwait
  }
  return failures != 0;
}
