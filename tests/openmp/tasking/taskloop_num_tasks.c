// Checks taskloop num_tasks(k): exactly min(k, iterations) tasks are generated, each with at least one iteration, all iterations once; also num_tasks(strict: k).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_num_tasks.c"

#include "omp_check.h"

#define MAXT 4096

static int task_count;
static int iters_of[MAXT];

static void note(int *id)
{
  if (*id < 0)
    *id = __atomic_fetch_add(&task_count, 1, __ATOMIC_RELAXED);
  if (*id < MAXT)
    iters_of[*id]++;
}

int main(int argc, char **argv)
{
  (void)argv;
  static const int cases[][2] = {{1000, 7}, {1000, 1}, {1000, 1000}, {100, 3000}, {37, 4}, {1, 5}, {2048, 64}, {99, 98}};
  for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int n = cases[c][0] + argc - 1, k = cases[c][1];
    int expect = k < n ? k : n;
    for (int strict = 0; strict < 2; strict++) {
      task_count = 0;
      memset(iters_of, 0, sizeof iters_of);
      long sum = 0;
      int id = -1;
      if (!strict) {
#pragma omp parallel shared(sum) firstprivate(n, k)
#pragma omp single
#pragma omp taskloop num_tasks(k) firstprivate(id) reduction(+ : sum)
        for (int i = 0; i < n; i++) {
          note(&id);
          sum += i;
        }
      } else {
#pragma omp parallel shared(sum) firstprivate(n, k)
#pragma omp single
#pragma omp taskloop num_tasks(strict : k) firstprivate(id) reduction(+ : sum)
        for (int i = 0; i < n; i++) {
          note(&id);
          sum += i;
        }
      }
      EXPECT(expect, task_count, "n=%d num_tasks(%s%d): tasks generated", n, strict ? "strict: " : "", k);
      int empty = 0, total = 0;
      for (int t = 0; t < task_count && t < MAXT; t++) {
        empty += iters_of[t] == 0;
        total += iters_of[t];
      }
      EXPECT(0, empty, "n=%d num_tasks(%d): tasks without iterations", n, k);
      EXPECT(n, total, "n=%d num_tasks(%d): iterations", n, k);
      EXPECT((long)n * (n - 1) / 2, sum, "n=%d num_tasks(%d): sum", n, k);
    }
  }
  return failures != 0;
}
