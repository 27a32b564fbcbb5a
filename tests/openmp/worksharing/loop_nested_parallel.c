// Checks worksharing loops in nested parallel regions (two active levels, and inner regions serialized by max-active-levels 1): each inner team runs its own loop instance fully, static chunks round robin within the inner team, and the outer team's loops still work.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define OUT 2
#define N 120
static int hits[OUT][N], owner[OUT][N], inner_size[OUT], outer_hits[N];

static void run(int levels) {
  omp_set_max_active_levels(levels);
  for (int o = 0; o < OUT; o++)
    for (int i = 0; i < N; i++)
      hits[o][i] = 0, owner[o][i] = -1;
  for (int i = 0; i < N; i++)
    outer_hits[i] = 0;
  int outer_size = 0;
#pragma omp parallel num_threads(OUT)
  {
    int o = omp_get_thread_num();
#pragma omp single
    outer_size = omp_get_num_threads();
#pragma omp parallel num_threads(3)
    {
#pragma omp single
      inner_size[o] = omp_get_num_threads();
#pragma omp for schedule(dynamic, 2)
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[o][i]++;
#pragma omp for schedule(static, 4)
      for (int i = 0; i < N; i++) {
#pragma omp atomic
        hits[o][i]++;
#pragma omp atomic write
        owner[o][i] = omp_get_thread_num();
      }
    }
    /* Back in the outer team. */
#pragma omp for schedule(guided)
    for (int i = 0; i < N; i++)
#pragma omp atomic
      outer_hits[i]++;
  }
  for (int o = 0; o < outer_size; o++) {
    CHECK(levels >= 2 ? 3 : 1, inner_size[o], "levels=%d inner team size of outer thread %d", levels, o);
    for (int i = 0; i < N; i++) {
      CHECK(2, hits[o][i], "levels=%d outer thread %d count[%d]", levels, o, i);
      CHECK((i / 4) % inner_size[o], owner[o][i], "levels=%d outer thread %d static,4 owner[%d]", levels, o, i);
    }
  }
  for (int o = outer_size; o < OUT; o++)
    for (int i = 0; i < N; i++)
      CHECK(0, hits[o][i], "levels=%d missing outer thread %d count[%d]", levels, o, i);
  for (int i = 0; i < N; i++)
    CHECK(1, outer_hits[i], "levels=%d outer loop count[%d]", levels, i);
}

int main(void) {
  /* Few repetitions: some runtimes do not keep nested threads around. */
  for (int rep = 0; rep < 2; rep++)
    run(2);
  for (int rep = 0; rep < 2; rep++)
    run(1);

  /* A parallel for inside each iteration of an outer worksharing loop. */
  omp_set_max_active_levels(2);
  static int grid[8][N];
#pragma omp parallel num_threads(2)
#pragma omp for schedule(dynamic)
  for (int r = 0; r < 8; r++) {
#pragma omp parallel for num_threads(2) schedule(dynamic, 5)
    for (int i = 0; i < N; i++)
#pragma omp atomic
      grid[r][i]++;
  }
  for (int r = 0; r < 8; r++)
    for (int i = 0; i < N; i++)
      CHECK(1, grid[r][i], "loop in loop count[%d][%d]", r, i);
  return fails != 0;
}
