/* OMP_WAIT_POLICY (or WEFT_WAIT_POLICY when it is unset) honoured by weft's
   idle workers: run under weft with the policy expected as argv[1]
   ("active" or "passive") and, as argv[2], the policy OMP_DISPLAY_ENV
   shows when it is not that one (GOMP_SPINCOUNT overrides the policy's
   spinning, not its name). OMP_DISPLAY_ENV's block shows it, and, in a team
   of two or more, the members waiting at the region's end barrier while
   thread 0 works alone
     active:  do not sleep within 50 ms (weft's sleep counter stays put: an
              active worker spins for billions of pauses first);
     passive: go to sleep (within 10 s: a passive worker sleeps after a few
              yields).
   The counter is weft_stats.sleeps, found with dlsym (the program is linked
   with libgomp, as gcc links it, and weft stands in for it). */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "captured_output.h"
#include <weft/weft.h>

typedef int (*stats_fn)(weft_stats *);

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long sleeps(stats_fn get) {
  weft_stats s;
  memset(&s, 0, sizeof s);
  if (get(&s) != 0)
    return ~0ull;
  return (unsigned long long)s.sleeps;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3 ||
      (strcmp(argv[1], "active") && strcmp(argv[1], "passive"))) {
    fprintf(stderr, "usage: %s active|passive [ACTIVE|PASSIVE]\n", argv[0]);
    return 2;
  }
  const int active = strcmp(argv[1], "active") == 0;
  const char *shown = argc == 3 ? argv[2] : active ? "ACTIVE" : "PASSIVE";

  struct capture cap;
  if (capture_start(&cap))
    return 1;
  omp_display_env(0);
  capture_stop(&cap);
  static char buf[1 << 16];
  capture_read(&cap, buf, sizeof buf);
  char want[64];
  snprintf(want, sizeof want, "OMP_WAIT_POLICY = '%s'", shown);
  check(1, count_matches(buf, want), "OMP_DISPLAY_ENV shows %s", want);

  stats_fn get = (stats_fn)dlsym(RTLD_DEFAULT, "weft_stats_get");
  check(1, get != NULL, "weft_stats_get found (run under weft)");
  if (!get)
    return 1;
  const int n = omp_get_max_threads();
  check(1, n >= 2, "a team of two or more (OMP_NUM_THREADS=%d)", n);

  for (int round = 0; round < 3; round++) {
    unsigned long long before = 0, after = 0;
    int members = 0;
#pragma omp parallel num_threads(n)
    {
#pragma omp atomic
      members++;
      /* Sampled before the barrier: the other members pass it awake after
         this, so a sleep at the end barrier counts. */
#pragma omp master
      before = sleeps(get);
#pragma omp barrier
#pragma omp master
      {
        if (active) {
          const double until = now_s() + 0.05;
          while (now_s() < until) {
          }
          after = sleeps(get);
        } else {
          const double until = now_s() + 10.0;
          do
            after = sleeps(get);
          while (after == before && now_s() < until);
        }
      }
    }
    check(n, members, "round %d: team size", round);
    if (active)
      check(1, after == before,
            "round %d: no member slept in a 50 ms gap "
            "(sleeps %llu -> %llu)",
            round, before, after);
    else
      check(1, after > before,
            "round %d: a member slept in a 10 s gap "
            "(sleeps %llu -> %llu)",
            round, before, after);
  }
  return failures != 0;
}
