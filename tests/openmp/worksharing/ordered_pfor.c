// Checks the ordered clause on combined parallel for (static, static chunk, dynamic, guided, runtime, constant and run-time bounds): ordered regions run exactly once each, in iteration order.
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

int main(void) {
  static const int sizes[] = {0, 1, 6, 250};
  omp_set_schedule(omp_sched_guided, 3);
  for (int rep = 0; rep < 3; rep++) {
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s];
      reset(n);
#pragma omp parallel for ordered schedule(static)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("static", n);
      reset(n);
#pragma omp parallel for ordered schedule(static, 1)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("static,1", n);
      reset(n);
#pragma omp parallel for ordered schedule(dynamic, 2)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("dynamic,2", n);
      reset(n);
#pragma omp parallel for ordered schedule(guided)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("guided", n);
      reset(n);
#pragma omp parallel for ordered schedule(runtime)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        in_order(i);
      }
      check_order("runtime", n);
    }
    /* Constant bounds. */
    reset(100);
#pragma omp parallel for ordered schedule(dynamic)
    for (int i = 0; i < 100; i++) {
      delay(i);
#pragma omp ordered
      in_order(i);
    }
    check_order("dynamic constant bounds", 100);
  }
  return fails != 0;
}
