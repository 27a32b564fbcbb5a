// Checks schedule(runtime) after omp_set_schedule to each kind (static, dynamic, guided, auto, with and without chunk, monotonic): omp_get_schedule round trip, every iteration once, and the kind's chunk rules.
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

struct sched {
  omp_sched_t kind;
  int chunk;
  int monotonic;
};

static void run(struct sched s, int n) {
  omp_sched_t kind = s.kind;
  if (s.monotonic)
    kind = (omp_sched_t)(kind | omp_sched_monotonic);
  omp_set_schedule(kind, s.chunk);

  omp_sched_t got;
  int gotchunk;
  omp_get_schedule(&got, &gotchunk);
  CHECK(s.kind, got & ~omp_sched_monotonic, "omp_get_schedule kind after set(%d,%d)", s.kind, s.chunk);
  if (s.kind != omp_sched_auto && s.chunk >= 1)
    CHECK(s.chunk, gotchunk, "omp_get_schedule chunk after set(%d,%d)", s.kind, s.chunk);

  int nthr = 0;
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; i++)
      record(i, &myseq);
  }
  char tag[64];
  snprintf(tag, sizeof tag, "runtime(%d,%d%s)", s.kind, s.chunk, s.monotonic ? ",monotonic" : "");
  check_once(tag, n);
  if (s.kind == omp_sched_static && s.chunk < 1)
    check_one_block(tag, n, nthr);
  if (s.kind == omp_sched_static && s.chunk >= 1)
    check_round_robin(tag, n, s.chunk, nthr);
  if (s.kind == omp_sched_dynamic && s.chunk >= 1)
    check_chunks(tag, n, s.chunk);
  if (s.kind == omp_sched_guided && s.chunk >= 1)
    check_min_run(tag, n, s.chunk);
  if (s.monotonic)
    check_monotonic(tag, n, nthr);
}

int main(void) {
  static const struct sched scheds[] = {
      {omp_sched_static, 0, 0},  {omp_sched_static, 1, 0},  {omp_sched_static, 4, 0},
      {omp_sched_dynamic, 0, 0}, {omp_sched_dynamic, 1, 0}, {omp_sched_dynamic, 5, 0},
      {omp_sched_guided, 0, 0},  {omp_sched_guided, 3, 0},  {omp_sched_auto, 0, 0},
      {omp_sched_dynamic, 2, 1}, {omp_sched_guided, 4, 1},
  };
  static const int sizes[] = {0, 1, 7, 100, 1001};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned k = 0; k < sizeof scheds / sizeof scheds[0]; k++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(scheds[k], sizes[s]);

  return fails != 0;
}
