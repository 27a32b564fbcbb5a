/* A two-dimensional doacross wavefront for ordered(2) loop nests: body(i, j)
   computes val[i][j] from its north and west (and north-east) neighbours,
   need(i, j) after the sink waits notes a predecessor that had not finished,
   and check() compares counts and values with the sequential nest.

   Reports through CHECK() (ws_check.h). C (gnu11) only, like the programs
   that use it (its busy loops increment a volatile, which C++20 deprecates);
   the functions are marked unused, so unused ones do not warn. */
#ifndef WEFT_DOACROSS_WAVE_H
#define WEFT_DOACROSS_WAVE_H

#include "ws_check.h"

/* Small sizes on purpose: libgomp's doacross waits spin, which costs a time
   slice per blocked wait when threads outnumber cores. */
#define NI 8
#define NJ 8
static int done[NI][NJ], cnt[NI][NJ], late;
static long long val[NI][NJ];

__attribute__((unused)) static void reset(void) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      done[i][j] = cnt[i][j] = 0, val[i][j] = 0;
  late = 0;
}

/* After the sink waits: predecessor (i, j) must be done (if it exists). */
__attribute__((unused)) static void need(int i, int j) {
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

__attribute__((unused)) static long long get(int i, int j) {
  if (i < 0 || j < 0 || i >= NI || j >= NJ)
    return 1;
  long long v;
#pragma omp atomic read
  v = val[i][j];
  return v;
}

/* Wavefront update: val[i][j] from its north and west (and north-east) neighbours. */
__attribute__((unused)) static void body(int i, int j, int ne) {
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

__attribute__((unused)) static void check(const char *tag, int ne) {
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

#endif
