// Checks doacross on combined parallel for ordered(1) (constant and run-time bounds; static chunk, dynamic, guided): sinks wait for sources; values chain in order.
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

int main(void) {
  volatile int vn = 12;
  int n = vn;
  reset(n);
#pragma omp parallel for ordered(1) schedule(static, 1)
  for (int i = 0; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
    need(i - 1);
    body(i);
#pragma omp ordered depend(source)
  }
  check("parallel for static,1", n);

  reset(n);
#pragma omp parallel for ordered(1) schedule(dynamic)
  for (int i = 0; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
    need(i - 1);
    body(i);
#pragma omp ordered depend(source)
  }
  check("parallel for dynamic", n);

  reset(12);
#pragma omp parallel for ordered(1) schedule(guided)
  for (int i = 0; i < 12; i++) {
#pragma omp ordered depend(sink : i - 1)
    need(i - 1);
    body(i);
#pragma omp ordered depend(source)
  }
  check("parallel for guided constant bounds", 12);
  return fails != 0;
}
