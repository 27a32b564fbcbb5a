// Checks tasking outside any parallel region (team of one): tasks, dependences, taskwait, taskgroup, taskloop, task reductions and detach all work and omp_get_num_threads()==1, omp_in_parallel()==0.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_orphaned.c"

#include "omp_check.h"

static int helper_sum(int n)
{
  int s = 0;
#pragma omp taskgroup task_reduction(+ : s)
  for (int i = 1; i <= n; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
    s += i;
  }
  return s;
}

int main(void)
{
  EXPECT(0, omp_in_parallel(), "omp_in_parallel()");
  int x = 0, seen = -1, nthr = -1, inpar = -1;
#pragma omp task depend(out : x) shared(x, nthr, inpar)
  {
    x = 42;
    nthr = omp_get_num_threads();
    inpar = omp_in_parallel();
  }
#pragma omp task depend(in : x) shared(x, seen)
  seen = x;
#pragma omp taskwait
  EXPECT(42, seen, "dependent orphaned tasks");
  EXPECT(1, nthr, "omp_get_num_threads() inside orphaned task");
  EXPECT(0, inpar, "omp_in_parallel() inside orphaned task");

  int leaves = 0;
#pragma omp taskgroup
  for (int i = 0; i < 10; i++) {
#pragma omp task shared(leaves)
    {
#pragma omp task shared(leaves)
      {
#pragma omp atomic
        leaves++;
      }
    }
  }
  EXPECT(10, leaves, "grandchildren after orphaned taskgroup");

  long tl = 0;
#pragma omp taskloop grainsize(10) reduction(+ : tl)
  for (int i = 0; i < 1000; i++)
    tl += i;
  EXPECT(499500, tl, "orphaned taskloop reduction");

  EXPECT(5050, helper_sum(100), "orphaned task reduction");

  int d = 0;
  omp_event_handle_t ev = (omp_event_handle_t)0;
#pragma omp task detach(ev) shared(d)
  d = 1;
  omp_fulfill_event(ev);
#pragma omp taskwait
  EXPECT(1, d, "orphaned detached task");

  /* orphaned tasks called from inside a parallel region's function too */
  int inner = 0;
#pragma omp parallel num_threads(2) shared(inner)
#pragma omp single
  inner = helper_sum(10);
  EXPECT(55, inner, "same helper inside a parallel region");
  return failures != 0;
}
