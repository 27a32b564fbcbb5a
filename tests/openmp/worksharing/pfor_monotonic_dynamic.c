// Checks combined parallel for schedule(monotonic:dynamic, 2) with constant bounds (GOMP_parallel_loop_dynamic): every iteration once, chunks of 2 on one thread, each thread's chunks in increasing order.
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
    _Pragma("omp parallel for schedule(monotonic:dynamic, 2) firstprivate(myseq)") \
    for (int i = 0; i < N; i++) {                                              \
      _Pragma("omp atomic write") nthr = omp_get_num_threads();                \
      record(i, &myseq);                                                       \
    }                                                                          \
    check(N);                                                                  \
  } while (0);

static void check(int n) {
  const char *tag = "parallel for monotonic:dynamic, 2";
  check_once(tag, n);
  check_chunks(tag, n, 2); check_monotonic(tag, n, nthr);
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
