// Checks doacross loop nests, ordered(2) with depend(sink: i-1,j) depend(sink: i,j-1) (and i-1,j+1), under static, static chunk, dynamic and guided: sinks wait for their sources; the wavefront matches the sequential result.
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

#define WAVE(sched, tag)                                                       \
  reset();                                                                     \
  _Pragma("omp parallel") _Pragma(sched) for (int i = 0; i < NI; i++)           \
    for (int j = 0; j < NJ; j++) {                                             \
      _Pragma("omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)") { \
        need(i - 1, j);                                                        \
        need(i, j - 1);                                                        \
      }                                                                        \
      body(i, j, 0);                                                           \
      _Pragma("omp ordered depend(source)")                                    \
    }                                                                          \
  check(tag, 0);

int main(void) {
  WAVE("omp for ordered(2) schedule(static)", "static")
  WAVE("omp for ordered(2) schedule(static, 1)", "static,1")
  WAVE("omp for ordered(2) schedule(dynamic)", "dynamic")
  WAVE("omp for ordered(2) schedule(guided)", "guided")

  /* North-east neighbour too: sink (i-1, j+1). */
  reset();
#pragma omp parallel
#pragma omp for ordered(2) schedule(static, 2)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1) depend(sink : i - 1, j + 1)
      {
        need(i - 1, j);
        need(i, j - 1);
        need(i - 1, j + 1);
      }
      body(i, j, 1);
#pragma omp ordered depend(source)
    }
  check("static,2 with north-east", 1);
  return fails != 0;
}
