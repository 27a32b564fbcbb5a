// Checks schedule(runtime) with OMP_SCHEDULE=guided,5 from the .env sidecar: omp_get_schedule reports it, every iteration runs once, no chunk but the last is below 5.
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

int main(void) {
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK(omp_sched_guided, kind & ~omp_sched_monotonic, "omp_get_schedule kind from OMP_SCHEDULE");
  CHECK(5, chunk, "omp_get_schedule chunk from OMP_SCHEDULE");
  static const int sizes[] = {0, 1, 2, 9, 100, 1001};
  for (int rep = 0; rep < 10; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s];
      reset(n);
#pragma omp parallel
      {
        int myseq = 0;
#pragma omp for schedule(runtime)
        for (int i = 0; i < n; i++)
          record(i, &myseq);
      }
      check_once("runtime", n);
      check_min_run("runtime=guided,5", n, 5);
    }
  return fails != 0;
}
