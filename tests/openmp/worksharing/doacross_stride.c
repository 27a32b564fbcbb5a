// Checks doacross loops with non-unit and negative steps (sink i-3 with step 3, sink i+1 counting down, sink i+4 with step -2 on two earlier iterations): sinks wait for sources; values chain in order.
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
  int n = 10;

  /* Step 3: the previous iteration is i - 3. */
  reset(n);
#pragma omp parallel
#pragma omp for ordered(1) schedule(static, 1)
  for (int i = 2; i < 2 + 3 * n; i += 3) {
#pragma omp ordered depend(sink : i - 3)
    need((i - 2) / 3 - 1);
    body((i - 2) / 3);
#pragma omp ordered depend(source)
  }
  check("step 3", n);

  /* Counting down: the previous iteration is i + 1. */
  reset(n);
#pragma omp parallel
#pragma omp for ordered(1) schedule(dynamic)
  for (int i = n; i > 0; i--) {
#pragma omp ordered depend(sink : i + 1)
    need(n - i - 1);
    body(n - i);
#pragma omp ordered depend(source)
  }
  check("step -1", n);

  /* Step -2 with sinks on the previous two iterations (i + 2, i + 4). */
  reset(n);
#pragma omp parallel
#pragma omp for ordered(1) schedule(guided)
  for (int i = 2 * n; i > 0; i -= 2) {
    int k = (2 * n - i) / 2;
#pragma omp ordered depend(sink : i + 2) depend(sink : i + 4)
    {
      need(k - 1);
      need(k - 2);
    }
    body(k);
#pragma omp ordered depend(source)
  }
  check("step -2, two sinks", n);
  return fails != 0;
}
