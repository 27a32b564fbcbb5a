// Checks combined parallel for schedule(static, 5) with constant bounds: every iteration once, chunks of 5 round robin over the threads.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static int nthr;

/* Constant bounds, so that GCC passes them to the combined entry point; each
   thread's private myseq counts its iterations. */
#define PFOR(N)                                                                \
  do {                                                                         \
    int myseq = 0;                                                             \
    reset(N);                                                                  \
    _Pragma("omp parallel for schedule(static, 5) firstprivate(myseq)")        \
    for (int i = 0; i < N; i++) {                                              \
      _Pragma("omp atomic write") nthr = omp_get_num_threads();                \
      record(i, &myseq);                                                       \
    }                                                                          \
    check(N);                                                                  \
  } while (0);

static void check(int n) {
  const char *tag = "parallel for static, 5";
  check_once(tag, n);
  check_round_robin(tag, n, 5, nthr);
}

int main(void) {
  for (int rep = 0; rep < 10; rep++) {
    PFOR(1)
    PFOR(7)
    PFOR(64)
    PFOR(1000)
  }
  return fails != 0;
}
