// Checks doacross loops on unsigned long long variables above LLONG_MAX (GOMP_loop_ull_doacross_*, GOMP_doacross_ull_post/wait) under static, static chunk, dynamic, guided and runtime: sinks wait for sources; values chain in order.
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

/* Small sizes on purpose: libgomp's doacross waits spin, which costs a time
   slice per blocked wait when threads outnumber cores. */
#define MAXN 64
static int done[MAXN], cnt[MAXN], late;
static long long val[MAXN];

static void reset(int n) {
  for (int k = 0; k < n; k++)
    done[k] = 0, cnt[k] = 0, val[k] = 0;
  late = 0;
}

/* After the sink waits of logical iteration k: predecessor p (if any) must be
   done. */
static void need(int p) {
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
static void body(int k) {
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

static void check(const char *tag, int n) {
  CHECK(0, late, "%s n=%d iterations that passed a sink before its source", tag, n);
  for (int k = 0; k < n; k++) {
    CHECK(1, cnt[k], "%s n=%d count[%d]", tag, n, k);
    CHECK((long long)(k + 1) * (k + 2) / 2, val[k], "%s n=%d value[%d]", tag, n, k);
  }
}

typedef unsigned long long ull;

/* Sink offsets must be constants: one macro for step 1, one for step 4. */
#define DOACROSS1(sched, tag)                                                  \
  reset(n);                                                                    \
  _Pragma("omp parallel") _Pragma(sched) for (ull i = lo; i < lo + (ull)n; i++) { \
    _Pragma("omp ordered depend(sink : i - 1)") need((int)(i - lo) - 1);       \
    body((int)(i - lo));                                                       \
    _Pragma("omp ordered depend(source)")                                      \
  }                                                                            \
  check(tag, n);

#define DOACROSS4(sched, tag)                                                  \
  reset(n);                                                                    \
  _Pragma("omp parallel") _Pragma(sched) for (ull i = lo; i < lo + 4 * (ull)n; i += 4) { \
    _Pragma("omp ordered depend(sink : i - 4)") need((int)((i - lo) / 4) - 1); \
    body((int)((i - lo) / 4));                                                 \
    _Pragma("omp ordered depend(source)")                                      \
  }                                                                            \
  check(tag, n);

static void run(ull lo, int n) {
  DOACROSS1("omp for ordered(1) schedule(static)", "static")
  DOACROSS1("omp for ordered(1) schedule(static, 2)", "static,2")
  DOACROSS1("omp for ordered(1) schedule(dynamic)", "dynamic")
  DOACROSS1("omp for ordered(1) schedule(guided)", "guided")
  DOACROSS1("omp for ordered(1) schedule(runtime)", "runtime")
  DOACROSS4("omp for ordered(1) schedule(static, 1)", "step 4 static,1")
  DOACROSS4("omp for ordered(1) schedule(dynamic)", "step 4 dynamic")
}

int main(void) {
  volatile ull big = 0xC000000000000000ULL;
  omp_set_schedule(omp_sched_dynamic, 2);
  run(big, 1);
  run(big + 3, 8);
  return fails != 0;
}
