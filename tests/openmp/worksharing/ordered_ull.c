// Checks the ordered clause on unsigned long long loops above LLONG_MAX (GOMP_loop_ull_ordered_*) with static, static chunk, dynamic, guided and runtime schedules: ordered regions run once each, in iteration order.
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

typedef unsigned long long ull;

static void run(ull lo, int n, ull st) {
  ull hi = lo + (ull)n * st;
#define ORD(sched, name)                                                       \
  reset(n);                                                                    \
  _Pragma("omp parallel") _Pragma(sched) for (ull i = lo; i < hi; i += st) {   \
    int k = (int)((i - lo) / st);                                              \
    delay(k);                                                                  \
    _Pragma("omp ordered") in_order(k);                                        \
  }                                                                            \
  check_order(name, n);
  ORD("omp for ordered schedule(static)", "static")
  ORD("omp for ordered schedule(static, 3)", "static,3")
  ORD("omp for ordered schedule(dynamic)", "dynamic")
  ORD("omp for ordered schedule(guided, 2)", "guided,2")
  ORD("omp for ordered schedule(runtime)", "runtime")
#undef ORD
}

int main(void) {
  volatile ull big = 0xA000000000000000ULL;
  omp_set_schedule(omp_sched_dynamic, 2);
  static const int sizes[] = {0, 1, 9, 150};
  for (int rep = 0; rep < 2; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      run(big, sizes[s], 1);
      run(big + 1, sizes[s], 1ULL << 50);
    }
  return fails != 0;
}
