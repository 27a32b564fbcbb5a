// Checks the ordered clause with schedule(static, 2): ordered regions run exactly once each, in iteration order (upward and downward loops).
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

/* seen[p]: the logical iteration whose ordered region ran p-th; pos: how many
   ordered regions ran (only touched inside ordered regions). */
#define MAXN 4096
static int seen[MAXN], cnt[MAXN], pos;

static inline void reset(int n) {
  for (int k = 0; k < n; k++)
    seen[k] = -1, cnt[k] = 0;
  pos = 0;
}

/* Some iterations take longer before their ordered region, so that later
   iterations reach theirs first. */
static inline void delay(int k) {
  if (k % 7 == 3)
    for (volatile int spin = 0; spin < 2000; spin++)
      ;
}

/* Called inside the ordered region of logical iteration k. */
static inline void in_order(int k) {
  if (pos < MAXN)
    seen[pos] = k;
  pos++;
#pragma omp atomic
  cnt[k]++;
}

static inline void check_order(const char *tag, int n) {
  CHECK(n, pos, "%s n=%d ordered regions run", tag, n);
  for (int p = 0; p < n; p++) {
    CHECK(p, seen[p], "%s n=%d ordered region #%d was iteration", tag, n, p);
    CHECK(1, cnt[p], "%s n=%d count[%d]", tag, n, p);
  }
}

static void run(int req, int n) {
  reset(n);
#pragma omp parallel num_threads(req)
  {
#pragma omp for ordered schedule(static, 2)
    for (int i = 0; i < n; i++) {
      delay(i);
#pragma omp ordered
      in_order(i);
    }
  }
  check_order("static, 2", n);

  /* Downward, step -3, work after the ordered region too. */
  reset(n);
#pragma omp parallel num_threads(req)
  {
#pragma omp for ordered schedule(static, 2)
    for (int i = 3 * n; i > 0; i -= 3) {
      int k = n - i / 3;
      delay(k);
#pragma omp ordered
      in_order(k);
      delay(k + 1);
    }
  }
  check_order("static, 2 downward", n);
}

int main(void) {
  static const int sizes[] = {0, 1, 2, 5, 64, 300};
  int reqs[2] = {omp_get_max_threads(), 3};
  /* Team size changes only once: resizing a team is slow in some runtimes. */
  for (int r = 0; r < 2; r++)
    for (int rep = 0; rep < 3; rep++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run(reqs[r], sizes[s]);
  return fails != 0;
}
