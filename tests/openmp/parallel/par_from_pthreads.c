/* Checks parallel regions started concurrently from two user pthreads (each an initial thread of its own contention group): each sees level 0 outside, gets its own exact teams with correct ids and barriers, and a named critical still excludes across both. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <pthread.h>
#define REGIONS 60

static long shared_counter;
static int occ, overlaps;

struct job {
  int id, bad, level_bad, crit_ok;
};

static void *runner(void *arg)
{
  struct job *j = (struct job *)arg;
  omp_set_dynamic(0);
  if (omp_get_level() != 0 || omp_in_parallel() || omp_get_thread_num() != 0)
    j->level_bad++;
  for (int r = 0; r < REGIONS; r++) {
    int k = 2 + (r + j->id) % 3;
    int cnt = 0, mask = 0, slot[4], stale = 0;
#pragma omp parallel num_threads(k)
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      cnt++;
#pragma omp atomic
      mask |= 1 << (t & 15);
      if (t < 4)
        slot[t] = r * 10 + t + j->id * 1000;
#pragma omp barrier
      for (int u = 0; u < k && u < 4; u++)
        if (slot[u] != r * 10 + u + j->id * 1000) {
#pragma omp atomic
          stale++;
        }
#pragma omp critical(across_pthreads)
      {
        if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
          overlaps++;
        shared_counter++;
        __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
      }
    }
    if (cnt != k || mask != (1 << k) - 1 || stale)
      j->bad++;
    j->crit_ok += k;
  }
  return NULL;
}

int main(void)
{
  struct job jobs[2] = {{0, 0, 0, 0}, {1, 0, 0, 0}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create(&th[i], NULL, runner, &jobs[i]) != 0) {
      fprintf(stderr, "FAIL %s: pthread_create failed\n", __FILE_NAME__);
      return 1;
    }
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], NULL);
  for (int i = 0; i < 2; i++) {
    check(0, jobs[i].bad, "pthread %d: regions with a wrong team, ids or barrier", i);
    check(0, jobs[i].level_bad, "pthread %d: not an initial thread at level 0", i);
  }
  check(jobs[0].crit_ok + jobs[1].crit_ok, shared_counter, "named critical counter across both pthreads' teams");
  check(0, overlaps, "overlaps inside the named critical across pthreads");
  return failures != 0;
}
