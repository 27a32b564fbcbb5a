/* A one-dimensional doacross chain for ordered(1) loops: body(k) computes
   val[k] from val[k-1], need(p) after the sink waits notes a predecessor that
   had not finished, and check() compares counts and values with the
   sequential loop.

   Reports through CHECK() (ws_check.h). C (gnu11) only, like the programs
   that use it (its busy loops increment a volatile, which C++20 deprecates);
   the functions are marked unused, so unused ones do not warn. */
#ifndef WEFT_DOACROSS_CHAIN_H
#define WEFT_DOACROSS_CHAIN_H

#include "ws_check.h"

/* Small sizes on purpose: libgomp's doacross waits spin, which costs a time
   slice per blocked wait when threads outnumber cores. */
#define MAXN 64
static int done[MAXN], cnt[MAXN], late;
static long long val[MAXN];

__attribute__((unused)) static void reset(int n) {
  for (int k = 0; k < n; k++)
    done[k] = 0, cnt[k] = 0, val[k] = 0;
  late = 0;
}

/* After the sink waits of logical iteration k: predecessor p (if any) must be
   done. */
__attribute__((unused)) static void need(int p) {
  if (p < 0)
    return;
  int d;
#pragma omp atomic read
  d = done[p];
  if (!d) {
#pragma omp atomic
    late++;
  }
}

/* val[k] = val[k-1] + k + 1, so val[k] = (k+1)(k+2)/2 if run in order. */
__attribute__((unused)) static void body(int k) {
  if (k % 11 == 5)
    for (volatile int spin = 0; spin < 1000; spin++)
      ;
  long long prev = 0;
  if (k > 0) {
#pragma omp atomic read
    prev = val[k - 1];
  }
#pragma omp atomic write
  val[k] = prev + k + 1;
#pragma omp atomic
  cnt[k]++;
#pragma omp atomic write
  done[k] = 1;
}

__attribute__((unused)) static void check(const char *tag, int n) {
  CHECK(0, late, "%s n=%d iterations that passed a sink before its source", tag, n);
  for (int k = 0; k < n; k++) {
    CHECK(1, cnt[k], "%s n=%d count[%d]", tag, n, k);
    CHECK((long long)(k + 1) * (k + 2) / 2, val[k], "%s n=%d value[%d]", tag, n, k);
  }
}

#endif
