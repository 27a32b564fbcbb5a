/* Recording which thread ran which logical iteration of a worksharing loop,
   and checks on the recorded schedule (each iteration once, whole chunks,
   per-thread order, round robin, contiguous blocks, minimum runs).

   Reports through CHECK() (ws_check.h). Works as C (gnu11) and C++
   (gnu++20); the functions are static inline, so unused ones do not warn. */
#ifndef WEFT_LOOP_RECORD_H
#define WEFT_LOOP_RECORD_H

#include <omp.h>

#include "ws_check.h"

/* Per logical iteration k: how often it ran, which thread ran it, and its
   position in that thread's sequence of iterations in this loop. */
#define MAXN 4096
static int cnt[MAXN], owner[MAXN], seq[MAXN];

static inline void reset(int n) {
  for (int k = 0; k < n; k++)
    cnt[k] = 0, owner[k] = -1, seq[k] = -1;
}

/* Called by the thread that executes logical iteration k; *myseq counts the
   iterations this thread has run in the current loop. */
static inline void record(int k, int *myseq) {
#pragma omp atomic
  cnt[k]++;
#pragma omp atomic write
  owner[k] = omp_get_thread_num();
#pragma omp atomic write
  seq[k] = (*myseq)++;
}

static inline void check_once(const char *tag, int n) {
  for (int k = 0; k < n; k++)
    CHECK(1, cnt[k], "%s n=%d count[%d]", tag, n, k);
}

/* Chunks of c consecutive iterations (the last may be shorter) each run on one
   thread, in order. */
static inline void check_chunks(const char *tag, int n, int c) {
  for (int k = 1; k < n; k++)
    if (k % c != 0) {
      CHECK(owner[k - 1], owner[k], "%s n=%d chunk=%d owner[%d]", tag, n, c, k);
      CHECK(seq[k - 1] + 1, seq[k], "%s n=%d chunk=%d seq[%d]", tag, n, c, k);
    }
}

/* Every thread ran its iterations in increasing iteration order. */
static inline void check_monotonic(const char *tag, int n, int nthr) {
  int next[64] = {0};
  for (int k = 0; k < n; k++)
    if (owner[k] >= 0 && owner[k] < nthr && owner[k] < 64)
      CHECK(next[owner[k]]++, seq[k], "%s n=%d seq[%d] (thread %d)", tag, n, k, owner[k]);
}

/* schedule(static, c): chunk j goes to thread j % nthr (round robin). */
static inline void check_round_robin(const char *tag, int n, int c, int nthr) {
  for (int k = 0; k < n; k++)
    CHECK((k / c) % nthr, owner[k], "%s n=%d chunk=%d nthr=%d owner[%d]", tag, n, c, nthr, k);
  check_monotonic(tag, n, nthr);
}

/* schedule(static) without chunk: each thread gets at most one contiguous
   block, run in order. */
static inline void check_one_block(const char *tag, int n, int nthr) {
  int first[64], num[64];
  for (int t = 0; t < 64; t++)
    first[t] = -1, num[t] = 0;
  for (int k = 0; k < n; k++) {
    int t = owner[k];
    CHECK(1, t >= 0 && t < nthr && t < 64, "%s n=%d owner[%d] in team", tag, n, k);
    if (t < 0 || t >= 64)
      continue;
    if (first[t] < 0)
      first[t] = k;
    CHECK(first[t] + num[t], k, "%s n=%d block of thread %d continues at", tag, n, t);
    CHECK(num[t], seq[k], "%s n=%d seq[%d]", tag, n, k);
    num[t]++;
  }
}

/* Maximal runs of consecutive iterations run back to back by one thread are
   unions of whole chunks: each run without the last iteration has >= c. */
static inline void check_min_run(const char *tag, int n, int c) {
  int start = 0;
  for (int k = 1; k <= n; k++)
    if (k == n || owner[k] != owner[k - 1] || seq[k] != seq[k - 1] + 1) {
      if (k != n && k - start < c)
        CHECK(c, k - start, "%s n=%d run of thread %d at %d: length >=", tag, n, owner[start], start);
      start = k;
    }
}

#endif
