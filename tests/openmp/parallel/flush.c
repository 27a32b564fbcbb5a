/* Checks flush: the spec's producer/consumer pattern (plain data, flush, atomic flag; consumer spins on the flag, flushes, reads the data) over 200 rounds with a rotating producer, using flush, flush(list), flush release/acquire/acq_rel. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

/* Reports a mismatch as "FAIL <file>: <what> expected <x> got <y>". */
__attribute__((format(printf, 3, 4), unused)) static void check(long long expected, long long got,
                                                                const char *what, ...)
{
  if (expected == got)
    return;
  if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) < 20) {
    char buf[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(buf, sizeof buf, what, ap);
    va_end(ap);
    fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", __FILE_NAME__, buf, expected, got);
  }
}
#include <sched.h>
#define T 3
#define ROUNDS 200

static int data[ROUNDS];

int main(void)
{
  omp_set_dynamic(0);
  int flag = 0, stale = 0, team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    int n = omp_get_num_threads();
#pragma omp atomic
    team++;
    for (int r = 0; r < ROUNDS; r++) {
      if (t == r % n) {
        data[r] = r * 7 + 3;
        if (r % 2) {
#pragma omp flush
        } else {
#pragma omp flush release
        }
#pragma omp atomic write
        flag = r + 1;
#pragma omp flush(flag)
      } else {
        int f;
        for (;;) {
#pragma omp atomic read
          f = flag;
          if (f >= r + 1)
            break;
          sched_yield();
        }
        if (r % 3 == 0) {
#pragma omp flush
        } else if (r % 3 == 1) {
#pragma omp flush acquire
        } else {
#pragma omp flush acq_rel
        }
        if (data[r] != r * 7 + 3) {
#pragma omp atomic
          stale++;
        }
      }
#pragma omp barrier
    }
  }
  check(T, team, "team size");
  check(0, stale, "consumers that read stale data after flush");
  check(ROUNDS, flag, "final flag");
  return failures != 0;
}
