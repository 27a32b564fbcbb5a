// Checks that the ICV setters called in an explicit task (omp_set_num_threads, omp_set_dynamic, omp_set_max_active_levels, omp_set_schedule) change that task's data environment only: its children (deferred and included) inherit the values at creation, a nested parallel region inside it uses its nthreads-var, tasks that run on the same thread while it waits do not see them, and the creating task's values are unchanged after it ends.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_icv_per_task.c"

#include "omp_check.h"

#define NTASKS 200

static void check_schedule(omp_sched_t kind, int chunk, const char *where)
{
  omp_sched_t k;
  int c;
  omp_get_schedule(&k, &c);
  EXPECT(kind, k, "%s: schedule kind", where);
  EXPECT(chunk, c, "%s: schedule chunk", where);
}

// The first task: sets every ICV, then checks children and a nested region.
static void setter_task(void)
{
  omp_set_num_threads(3);
  omp_set_max_active_levels(2);
  omp_set_schedule(omp_sched_dynamic, 5);
  EXPECT(3, omp_get_max_threads(), "task: own nthreads-var");
  EXPECT(2, omp_get_max_active_levels(), "task: own max-active-levels");
  check_schedule(omp_sched_dynamic, 5, "task");

#pragma omp task
  {
    EXPECT(3, omp_get_max_threads(), "child: inherited nthreads-var");
    EXPECT(2, omp_get_max_active_levels(), "child: inherited max-active-levels");
    check_schedule(omp_sched_dynamic, 5, "child");
    omp_set_num_threads(5);
    EXPECT(5, omp_get_max_threads(), "child: own nthreads-var");
#pragma omp task
    EXPECT(5, omp_get_max_threads(), "grandchild: inherited nthreads-var");
#pragma omp taskwait
    EXPECT(5, omp_get_max_threads(), "child after taskwait");
  }
#pragma omp task if (0)
  {
    EXPECT(3, omp_get_max_threads(), "included child: inherited nthreads-var");
    omp_set_num_threads(7);
    EXPECT(7, omp_get_max_threads(), "included child: own nthreads-var");
  }
#pragma omp taskwait
  EXPECT(3, omp_get_max_threads(), "task after its children changed theirs");

  int team = 0, inner_max = 0, inner_mal = 0;
#pragma omp parallel shared(team, inner_max, inner_mal)
  {
#pragma omp master
    {
      team = omp_get_num_threads();
      inner_max = omp_get_max_threads();
      inner_mal = omp_get_max_active_levels();
    }
  }
  EXPECT(3, team, "nested parallel inside the task: team size");
  EXPECT(3, inner_max, "nested parallel: members' nthreads-var");
  EXPECT(2, inner_mal, "nested parallel: members' max-active-levels");
  EXPECT(3, omp_get_max_threads(), "task after the nested region");

  omp_set_dynamic(!omp_get_dynamic());
}

int main(void)
{
  int outer_max = 0, outer_dyn = 0, outer_mal = 0;
  omp_sched_t outer_kind;
  int outer_chunk;
  static int seen[NTASKS];
#pragma omp parallel shared(outer_max, outer_dyn, outer_mal, outer_kind, outer_chunk, seen)
#pragma omp single
  {
    outer_max = omp_get_max_threads();
    outer_dyn = omp_get_dynamic();
    outer_mal = omp_get_max_active_levels();
    omp_get_schedule(&outer_kind, &outer_chunk);
#pragma omp task
    setter_task();
#pragma omp taskwait
    EXPECT(outer_max, omp_get_max_threads(), "implicit task: nthreads-var after the task");
    EXPECT(outer_dyn, omp_get_dynamic(), "implicit task: dyn-var after the task");
    EXPECT(outer_mal, omp_get_max_active_levels(), "implicit task: max-active-levels after the task");
    check_schedule(outer_kind, outer_chunk, "implicit task after the task");

    // Many tasks, each with its own value, suspended in a taskwait while
    // others (with other values, or none) run on the same threads.
    for (int i = 0; i < NTASKS; i++) {
#pragma omp task firstprivate(i) shared(seen)
      {
        if (i % 3 == 0) {
          EXPECT(outer_max, omp_get_max_threads(), "task %d without a setter", i);
        } else {
          int mine = 1 + i % 11;
          omp_set_num_threads(mine);
          for (int j = 0; j < 4; j++) {
#pragma omp task firstprivate(mine, i) shared(seen)
            {
              EXPECT(mine, omp_get_max_threads(), "task %d's child", i);
              __atomic_fetch_add(&seen[i], 1, __ATOMIC_RELAXED);
            }
          }
#pragma omp taskwait
          EXPECT(mine, omp_get_max_threads(), "task %d after its taskwait", i);
        }
      }
    }
#pragma omp taskwait
    EXPECT(outer_max, omp_get_max_threads(), "implicit task after the stress");
  }
  for (int i = 0; i < NTASKS; i++)
    EXPECT(i % 3 == 0 ? 0 : 4, seen[i], "children of task %d that ran", i);
  EXPECT(outer_max, omp_get_max_threads(), "initial task at the end");
  return failures != 0;
}
