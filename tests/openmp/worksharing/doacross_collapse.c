// Checks doacross with collapse: collapse(2) ordered(2) and collapse(2) ordered(3) with sinks on earlier iterations in every dimension, under static chunk, dynamic and guided: sinks wait for sources; results match the sequential nest.
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
#define NI 8
#define NJ 8
static int done[NI][NJ], cnt[NI][NJ], late;
static long long val[NI][NJ];

static void reset(void) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      done[i][j] = cnt[i][j] = 0, val[i][j] = 0;
  late = 0;
}

/* After the sink waits: predecessor (i, j) must be done (if it exists). */
static void need(int i, int j) {
  if (i < 0 || j < 0 || i >= NI || j >= NJ)
    return;
  int d;
#pragma omp atomic read
  d = done[i][j];
  if (!d) {
#pragma omp atomic
    late++;
  }
}

static long long get(int i, int j) {
  if (i < 0 || j < 0 || i >= NI || j >= NJ)
    return 1;
  long long v;
#pragma omp atomic read
  v = val[i][j];
  return v;
}

/* Wavefront update: val[i][j] from its north and west (and north-east) neighbours. */
static void body(int i, int j, int ne) {
  if ((i + j) % 5 == 2)
    for (volatile int spin = 0; spin < 1000; spin++)
      ;
  long long v = get(i - 1, j) + 2 * get(i, j - 1) + (ne ? get(i - 1, j + 1) : 0);
#pragma omp atomic write
  val[i][j] = v % 1000003;
#pragma omp atomic
  cnt[i][j]++;
#pragma omp atomic write
  done[i][j] = 1;
}

static void check(const char *tag, int ne) {
  static long long ref[NI][NJ];
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      long long n = i > 0 ? ref[i - 1][j] : 1, w = j > 0 ? ref[i][j - 1] : 1;
      long long e = ne ? (i > 0 && j + 1 < NJ ? ref[i - 1][j + 1] : 1) : 0;
      ref[i][j] = (n + 2 * w + e) % 1000003;
    }
  CHECK(0, late, "%s iterations that passed a sink before its source", tag);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      CHECK(1, cnt[i][j], "%s count[%d][%d]", tag, i, j);
      CHECK(ref[i][j], val[i][j], "%s value[%d][%d]", tag, i, j);
    }
}

#define NK 2
static int done3[NI][NJ][NK], late3;

int main(void) {
  reset();
#pragma omp parallel
#pragma omp for collapse(2) ordered(2) schedule(static, 3)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      {
        need(i - 1, j);
        need(i, j - 1);
      }
      body(i, j, 0);
#pragma omp ordered depend(source)
    }
  check("collapse(2) ordered(2) static,3", 0);

  reset();
#pragma omp parallel
#pragma omp for collapse(2) ordered(2) schedule(dynamic)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      {
        need(i - 1, j);
        need(i, j - 1);
      }
      body(i, j, 0);
#pragma omp ordered depend(source)
    }
  check("collapse(2) ordered(2) dynamic", 0);

  /* Three loops, the outer two collapsed: sink on (i, j-1, k) and (i-1, j, k). */
  late3 = 0;
#pragma omp parallel
#pragma omp for collapse(2) ordered(3) schedule(guided)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) {
#pragma omp ordered depend(sink : i, j - 1, k) depend(sink : i - 1, j, k)
        {
          int a = 1, b = 1;
          if (j > 0) {
#pragma omp atomic read
            a = done3[i][j - 1][k];
          }
          if (i > 0) {
#pragma omp atomic read
            b = done3[i - 1][j][k];
          }
          if (!a || !b) {
#pragma omp atomic
            late3++;
          }
        }
#pragma omp atomic
        done3[i][j][k]++;
#pragma omp ordered depend(source)
      }
  CHECK(0, late3, "collapse(2) ordered(3): iterations that passed a sink before its source");
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        CHECK(1, done3[i][j][k], "collapse(2) ordered(3) count[%d][%d][%d]", i, j, k);
  return fails != 0;
}
