// Checks doacross loops, ordered(1) with depend(sink: i-1) (and i-2) / depend(source), under static, static chunk, dynamic and guided: every sink iteration finished its source part first; values chain like the sequential loop.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define MAXN 2000
static int done[MAXN], cnt[MAXN], late;
static long long val[MAXN];

static void reset(int n) {
  for (int i = 0; i < n; i++)
    done[i] = 0, cnt[i] = 0, val[i] = 0;
  late = 0;
}

/* After the sink waits of iteration i: its predecessor p must be done. */
static void need(int p) {
  int d;
#pragma omp atomic read
  d = done[p];
  if (!d) {
#pragma omp atomic
    late++;
  }
}

static void body(int i) {
  if (i % 11 == 5)
    for (volatile int spin = 0; spin < 1000; spin++)
      ;
  long long prev;
#pragma omp atomic read
  prev = val[i - 1];
#pragma omp atomic write
  val[i] = prev + i;
#pragma omp atomic
  cnt[i]++;
#pragma omp atomic write
  done[i] = 1;
}

static void check(const char *tag, int n) {
  CHECK(0, late, "%s n=%d iterations that passed a sink before its source", tag, n);
  for (int i = 1; i < n; i++) {
    CHECK(1, cnt[i], "%s n=%d count[%d]", tag, n, i);
    CHECK((long long)i * (i + 1) / 2, val[i], "%s n=%d value[%d]", tag, n, i);
  }
}

#define DOACROSS(sched, tag)                                                   \
  reset(n);                                                                    \
  done[0] = 1;                                                                 \
  _Pragma("omp parallel") _Pragma(sched) for (int i = 1; i < n; i++) {          \
    _Pragma("omp ordered depend(sink : i - 1)") need(i - 1);                   \
    body(i);                                                                   \
    _Pragma("omp ordered depend(source)")                                      \
  }                                                                            \
  check(tag, n);

static void run(int n) {
  DOACROSS("omp for ordered(1) schedule(static)", "static")
  DOACROSS("omp for ordered(1) schedule(static, 1)", "static,1")
  DOACROSS("omp for ordered(1) schedule(dynamic)", "dynamic")
  DOACROSS("omp for ordered(1) schedule(dynamic, 3)", "dynamic,3")
  DOACROSS("omp for ordered(1) schedule(guided)", "guided")

  /* Two sinks, i-1 and i-2 (the latter out of range for i == 1). */
  reset(n);
  done[0] = 1;
#pragma omp parallel
#pragma omp for ordered(1) schedule(static, 2)
  for (int i = 1; i < n; i++) {
#pragma omp ordered depend(sink : i - 2) depend(sink : i - 1)
    {
    }
    need(i - 1);
    if (i >= 2)
      need(i - 2);
    body(i);
#pragma omp ordered depend(source)
  }
  check("sinks i-1, i-2", n);
}

int main(void) {
  /* Kept small: libgomp's doacross waits spin, which costs a time slice per
     wait when threads outnumber cores. */
  static const int sizes[] = {1, 3, 12};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    run(sizes[s]);
  return fails != 0;
}
