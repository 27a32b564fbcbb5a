// Checks taskloop grainsize(g): every generated task gets between min(g, iterations) and 2g-1 iterations (strict: exactly g except the last), each iteration runs once; tasks are identified through a per-task firstprivate.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_grainsize.c"

#include "omp_check.h"

#define MAXT 4096

static int task_count;
static int iters_of[MAXT];

static void reset(void)
{
  task_count = 0;
  memset(iters_of, 0, sizeof iters_of);
}

/* called by each iteration: the first iteration of a task gives it an id */
static void note(int *id)
{
  if (*id < 0)
    *id = __atomic_fetch_add(&task_count, 1, __ATOMIC_RELAXED);
  if (*id < MAXT)
    iters_of[*id]++;
}

static void check_range(const char *what, int iters, int g)
{
  int lo = g < iters ? g : iters;
  int total = 0;
  EXPECT(1, task_count >= 1 && task_count <= MAXT, "%s: number of tasks (%d) in range", what, task_count);
  for (int t = 0; t < task_count && t < MAXT; t++) {
    total += iters_of[t];
    if (iters_of[t] < lo || iters_of[t] >= 2 * g) {
      fail(g, iters_of[t], "%s: a task got %d iterations, allowed [%d, %d] (grainsize shown as expected)", what, iters_of[t], lo, 2 * g - 1);
      break;
    }
  }
  EXPECT(iters, total, "%s: iterations executed", what);
}

static void check_strict(const char *what, int iters, int g)
{
  int total = 0, short_tasks = 0;
  for (int t = 0; t < task_count && t < MAXT; t++) {
    total += iters_of[t];
    if (iters_of[t] != g)
      short_tasks++;
    if (iters_of[t] > g)
      fail(g, iters_of[t], "%s: strict task with too many iterations", what);
  }
  EXPECT(iters, total, "%s: iterations executed", what);
  EXPECT(iters % g ? 1 : 0, short_tasks, "%s: tasks with fewer than g iterations", what);
  EXPECT((iters + g - 1) / g, task_count, "%s: number of tasks", what);
}

int main(int argc, char **argv)
{
  (void)argv;
  static const int cases[][2] = {{1000, 7}, {1000, 1}, {1000, 100}, {1000, 999}, {1000, 5000}, {37, 4}, {1, 3}, {4096, 64}};
  static int hit[5000];
  for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int n = cases[c][0] + argc - 1, g = cases[c][1];
    char what[64];
    snprintf(what, sizeof what, "n=%d grainsize(%d)", n, g);
    reset();
    memset(hit, 0, sizeof hit);
    int id = -1;
#pragma omp parallel shared(hit) firstprivate(n, g)
#pragma omp single
#pragma omp taskloop grainsize(g) firstprivate(id)
    for (int i = 0; i < n; i++) {
      note(&id);
      hit[i]++;
    }
    check_range(what, n, g);
    int bad = 0;
    for (int i = 0; i < n; i++)
      bad += hit[i] != 1;
    EXPECT(0, bad, "%s: iterations not run exactly once", what);

    snprintf(what, sizeof what, "n=%d grainsize(strict: %d)", n, g);
    reset();
#pragma omp parallel firstprivate(n, g)
#pragma omp single
#pragma omp taskloop grainsize(strict : g) firstprivate(id)
    for (int i = 0; i < n; i++)
      note(&id);
    check_strict(what, n, g);
  }
  return failures != 0;
}
