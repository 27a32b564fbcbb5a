// Checks cancel for with OMP_CANCELLATION=true (.env): the cancelling thread starts no further iteration, none runs twice, a team of one stops exactly at the cancel, and later loops in the region run fully.
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

static int done[MAXN], after[MAXN];

static void run(int n, int k, int dynamic) {
  int nthr = 0;
  const char *tag = dynamic ? "dynamic,3" : "static";
  reset(n);
  for (int i = 0; i < n; i++)
    done[i] = 0, after[i] = 0;
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
    if (dynamic) {
#pragma omp for schedule(dynamic, 3)
      for (int i = 0; i < n; i++) {
        record(i, &myseq); /* started */
#pragma omp cancel for if (i == k)
#pragma omp atomic
        done[i]++;
#pragma omp cancellation point for
      }
    } else {
#pragma omp for schedule(static)
      for (int i = 0; i < n; i++) {
        record(i, &myseq);
        if (i == k) {
#pragma omp cancel for
        }
#pragma omp atomic
        done[i]++;
#pragma omp cancellation point for
      }
    }
    /* Not cancelled: runs fully. */
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < n; i++)
#pragma omp atomic
      after[i]++;
  }
  CHECK(1, cnt[k], "%s n=%d: the cancelling iteration %d started", tag, n, k);
  CHECK(0, done[k], "%s n=%d: the cancelling iteration %d went on after cancel", tag, n, k);
  for (int i = 0; i < n; i++) {
    CHECK(1, cnt[i] <= 1, "%s n=%d cancel at %d: iteration %d started at most once", tag, n, k, i);
    if (owner[i] == owner[k] && seq[i] > seq[k])
      CHECK(-1, i, "%s n=%d cancel at %d: the cancelling thread started a later iteration", tag, n, k);
    if (nthr == 1)
      CHECK(i < k, done[i], "%s one thread, n=%d cancel at %d: iteration %d completed", tag, n, k, i);
    CHECK(1, after[i], "%s n=%d cancel at %d: loop after the cancelled one count[%d]", tag, n, k, i);
  }
}

int main(void) {
  CHECK(1, omp_get_cancellation(), "omp_get_cancellation with OMP_CANCELLATION=true");
  for (int rep = 0; rep < 10; rep++)
    for (int dyn = 0; dyn < 2; dyn++) {
      run(100, 0, dyn);
      run(100, 37, dyn);
      run(100, 99, dyn);
      run(7, 3, dyn);
    }
  return fails != 0;
}
