// Checks loops with non-unit steps (2, 5, 7, 1000, run-time step) and <=, <, != tests, whose bounds are not multiples of the step, under each schedule: every iteration once, none outside the range.
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

/* Trip count of for (i = lo; i < hi; i += st). */
static int trips(int lo, int hi, int st) { return hi > lo ? (hi - lo + st - 1) / st : 0; }

static void run(int lo, int hi, int st) {
  int n = trips(lo, hi, st), nthr = 0, bad = 0;
  char tag[64];
  snprintf(tag, sizeof tag, "[%d,%d) step %d", lo, hi, st);
  if (n > MAXN)
    return;

  reset(n);
#pragma omp parallel reduction(+ : bad)
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(static, 2)
    for (int i = lo; i < hi; i += st) {
      bad += (i - lo) % st != 0;
      record((i - lo) / st, &myseq);
    }
  }
  check_once(tag, n);
  check_round_robin(tag, n, 2, nthr);
  CHECK(0, bad, "%s static,2 iterations off the step", tag);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 3)
    for (int i = lo; i <= hi - 1; i += st)
      record((i - lo) / st, &myseq);
#pragma omp for schedule(guided)
    for (int i = lo; i <= hi - 1; i += st)
      record((i - lo) / st, &myseq);
#pragma omp for schedule(static)
    for (int i = lo; i < hi; i += st)
      record((i - lo) / st, &myseq);
  }
  for (int k = 0; k < n; k++)
    CHECK(3, cnt[k], "%s count[%d] over dynamic, guided, static", tag, k);
}

int main(void) {
  for (int rep = 0; rep < 3; rep++) {
    run(0, 100, 2);
    run(0, 101, 2);
    run(3, 1004, 5);
    run(-50, 51, 7);
    run(0, 6, 7);
    run(0, 7, 7);
    run(0, 8, 7);
    run(-1000000, 1000000, 1000);
    run(5, 5, 3);
  }

  /* Literal step and the != form (unit step), plus a run-time step. */
  int n = 250;
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i != n; i++)
      record(i, &myseq);
  }
  check_once("!= unit step", n);

  volatile int vst = 9;
  int st = vst;
  n = trips(11, 2000, st);
  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(guided, 3)
    for (int i = 11; i < 2000; i += st)
      record((i - 11) / st, &myseq);
  }
  check_once("run-time step 9", n);
  check_min_run("run-time step 9", n, 3);
  return fails != 0;
}
