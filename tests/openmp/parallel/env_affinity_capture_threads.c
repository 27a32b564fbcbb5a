/* Checks omp_capture_affinity's %A and %{thread_affinity} with OMP_PROC_BIND=close OMP_PLACES=threads (see .env): each thread of a team of one thread per place captures its place's processors, as omp_get_place_proc_ids lists them ("0-3,6" form), not every processor; the thread's affinity mask is that place too. */
#ifndef NAME
#define NAME "env_affinity_capture_threads.c"
#endif
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_env.h"

#ifndef PLACES
#define PLACES "threads"
#endif

/* ids ascending, consecutive runs as ranges, comma separated. */
static void format_list(const int *ids, int n, char *out, size_t size)
{
  size_t len = 0;
  out[0] = '\0';
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && ids[j + 1] == ids[j] + 1)
      j++;
    if (j > i)
      len += (size_t)snprintf(out + len, size - len, "%s%d-%d", len ? "," : "", ids[i], ids[j]);
    else
      len += (size_t)snprintf(out + len, size - len, "%s%d", len ? "," : "", ids[i]);
    i = j + 1;
  }
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(void)
{
  require_env("OMP_PLACES", PLACES);
  require_env("OMP_PROC_BIND", "close");
  omp_set_dynamic(0);
  int np = omp_get_num_places();
  check(1, np >= 1, "omp_get_num_places() >= 1 (got %d)", np);
  if (np < 1)
    return 1;
  int team = np < 8 ? np : 8;
  int captured = 0, wrong_a = 0, wrong_long = 0, wrong_mask = 0;
#pragma omp parallel num_threads(team)
  {
    int pl = omp_get_place_num();
    int n = pl >= 0 ? omp_get_place_num_procs(pl) : 0;
    if (n >= 1 && n <= 256) {
      int ids[256];
      omp_get_place_proc_ids(pl, ids);
      qsort(ids, (size_t)n, sizeof ids[0], cmp_int);
      char want[1024], a[1024], l[1024];
      format_list(ids, n, want, sizeof want);
      size_t la = omp_capture_affinity(a, sizeof a, "%A");
      size_t ll = omp_capture_affinity(l, sizeof l, "%{thread_affinity}");
      /* The mask the thread runs under. */
      cpu_set_t set;
      CPU_ZERO(&set);
      int mask_ok = sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == n;
      for (int i = 0; i < n && mask_ok; i++)
        mask_ok = CPU_ISSET(ids[i], &set);
#pragma omp critical
      {
        captured++;
        if (la != strlen(want) || strcmp(a, want) != 0) {
          wrong_a++;
          fprintf(stderr, "FAIL %s: thread %d place %d: %%A captured \"%s\", the place is \"%s\"\n", NAME, omp_get_thread_num(), pl, a, want);
        }
        if (ll != strlen(want) || strcmp(l, want) != 0) {
          wrong_long++;
          fprintf(stderr, "FAIL %s: thread %d place %d: %%{thread_affinity} captured \"%s\", the place is \"%s\"\n", NAME, omp_get_thread_num(), pl, l, want);
        }
        wrong_mask += !mask_ok;
      }
    }
  }
  check(team, captured, "threads bound to a place");
  check(0, wrong_a, "threads whose %%A is not their place");
  check(0, wrong_long, "threads whose %%{thread_affinity} is not their place");
  check(0, wrong_mask, "threads whose affinity mask is not their place");
  return failures != 0;
}
