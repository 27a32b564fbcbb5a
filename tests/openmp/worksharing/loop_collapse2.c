// Checks collapse(2) loops (rectangular, offset bounds, steps, an empty dimension) under static, static chunk, dynamic, guided and runtime: every (i,j) once, static chunks round robin over the collapsed space, lastprivate(i,j) = sequential exit values.
#include <omp.h>
#include <stdio.h>

static int fails;
/* Compare integers; on mismatch report "FAIL <file>: <what> expected <x> got <y>". */
#define CHECK(exp, got, ...)                                                   \
  do {                                                                         \
    long long e_ = (long long)(exp), g_ = (long long)(got);                    \
    if (e_ != g_ && fails++ < 10) {                                            \
      char w_[160];                                                            \
      snprintf(w_, sizeof w_, __VA_ARGS__);                                    \
      fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", __FILE_NAME__,  \
              w_, e_, g_);                                                     \
    }                                                                          \
  } while (0)

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

static void run(int ni, int nj) {
  int n = ni * nj, nthr = 0, li = -100, lj = -100;
  char tag[48];
  snprintf(tag, sizeof tag, "%dx%d", ni, nj);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for collapse(2) schedule(static)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
  check_one_block(tag, n, nthr);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(2) schedule(static, 3)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
  check_round_robin(tag, n, 3, nthr);

  /* Only non-empty: for an empty loop GCC's lastprivate copy-out test is true
     on every thread, so all of them would write li and lj (a race, and the
     values are unspecified then anyway). */
  if (n > 0) {
    reset(n);
#pragma omp parallel
    {
      int myseq = 0;
      /* Offset bounds and steps: i = 5, 7, ...; j = 10, 7, 4, ... (downward). */
#pragma omp for collapse(2) schedule(dynamic, 4) lastprivate(li, lj)
      for (li = 5; li < 5 + 2 * ni; li += 2)
        for (lj = 10; lj > 10 - 3 * nj; lj -= 3)
          record(((li - 5) / 2) * nj + (10 - lj) / 3, &myseq);
    }
    check_once(tag, n);
    check_chunks(tag, n, 4);
    CHECK(5 + 2 * ni, li, "%s lastprivate outer variable", tag);
    CHECK(10 - 3 * nj, lj, "%s lastprivate inner variable", tag);
  }

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(2) schedule(guided, 2)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
  check_min_run(tag, n, 2);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(2) schedule(runtime)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        record(i * nj + j, &myseq);
  }
  check_once(tag, n);
}

int main(void) {
  static const int dims[][2] = {{0, 5}, {5, 0}, {1, 1}, {1, 9}, {9, 1}, {3, 4}, {17, 13}, {40, 50}};
  omp_set_schedule(omp_sched_dynamic, 2);
  for (int rep = 0; rep < 3; rep++)
    for (unsigned d = 0; d < sizeof dims / sizeof dims[0]; d++)
      run(dims[d][0], dims[d][1]);
  return fails != 0;
}
