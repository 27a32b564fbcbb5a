/* Checks the pre-GCC 4.9 parallel protocol (GOMP_parallel_start, the master calling the body itself, GOMP_parallel_end), which old binaries use: every member runs the body once per region, in nested order. */
#include <omp.h>
#include <stdio.h>

extern void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads);
extern void GOMP_parallel_end(void);

static int seen[8];
static int team_size_wrong;

static void body(void *data)
{
  (void)data;
  if (omp_get_num_threads() != 3)
    __atomic_fetch_add(&team_size_wrong, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&seen[omp_get_thread_num()], 1, __ATOMIC_RELAXED);
}

int main(void)
{
  omp_set_dynamic(0);
  for (int r = 0; r < 200; r++) {
    GOMP_parallel_start(body, NULL, 3);
    body(NULL);
    GOMP_parallel_end();
  }
  int bad = team_size_wrong != 0;
  for (int i = 0; i < 3; i++)
    if (seen[i] != 200) {
      fprintf(stderr, "FAIL par_legacy_start_end.c: thread %d ran the body expected 200 got %d\n", i, seen[i]);
      bad = 1;
    }
  if (seen[3] != 0) {
    fprintf(stderr, "FAIL par_legacy_start_end.c: a 4th thread ran the body expected 0 got %d\n", seen[3]);
    bad = 1;
  }
  if (team_size_wrong)
    fprintf(stderr, "FAIL par_legacy_start_end.c: team size wrong expected 0 got %d\n", team_size_wrong);
  return bad;
}
