// Checks random dependence graphs expressed with iterator dependences (3 seeds, 2000 tasks, 0..5 dependences each incl. none, in/out/inout and mutexinoutset, both GCC depend-array layouts): logs respect sequential order.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_random_graph_iterator.c"

static int failures;

/* Print "FAIL <file>: <what> expected <x> got <y>" (first 10 only) and remember the failure. */
__attribute__((format(printf, 3, 4))) static void fail(long long exp, long long got, const char *fmt, ...)
{
  int n;
#pragma omp atomic capture
  n = failures++;
  if (n >= 10)
    return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", NAME, what, exp, got);
}

#define EXPECT(exp, got, ...)                                                                      \
  do {                                                                                             \
    long long e_ = (long long)(exp), g_ = (long long)(got);                                        \
    if (e_ != g_)                                                                                  \
      fail(e_, g_, __VA_ARGS__);                                                                   \
  } while (0)

/* Busy work to widen race windows; never used to decide pass/fail. */
static inline void spin(int n)
{
  for (volatile int i = 0; i < n; i++) {
  }
}

/* Global event counter: ordering checks compare ticks (end of A < start of B). */
static long seq_counter;
static inline long tick(void) { return __atomic_fetch_add(&seq_counter, 1, __ATOMIC_SEQ_CST); }

#define NV 16
#define NTASK 2000
#define MAXD 5
enum { K_IN, K_OUT, K_INOUT, K_MTX };

static int nd[NTASK];
static int dv[NTASK][MAXD], dk[NTASK][MAXD];
static int dgrp[NTASK][MAXD];  /* group index of each access in its variable's sequence */
static long expver[NTASK][MAXD]; /* writer count before a read access */
static int seqgrp[NV][NTASK * MAXD];
static int seqlen[NV];
static int logv[NV][NTASK * MAXD];
static int logpos[NV];
static long version[NV];
static int inflight[NV], max_inflight;
static int bad_reads;

static unsigned rng_state;
static unsigned rnd(void)
{
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 16) & 0x7fff;
}

/* sequential semantics: consecutive reads (or consecutive mutexinoutset accesses) form one group,
   every out/inout access is a group of its own */
static void simulate(void)
{
  int grp[NV], cls[NV]; /* cls: -1 none, K_IN, K_MTX, K_OUT (writer) */
  long ver[NV];
  for (int v = 0; v < NV; v++) {
    grp[v] = -1;
    cls[v] = -1;
    ver[v] = 0;
    seqlen[v] = 0;
    logpos[v] = 0;
    version[v] = 0;
    inflight[v] = 0;
  }
  for (int t = 0; t < NTASK; t++)
    for (int d = 0; d < nd[t]; d++) {
      int v = dv[t][d], k = dk[t][d];
      if (k == K_IN || k == K_MTX) {
        if (cls[v] != k) {
          grp[v]++;
          cls[v] = k;
        }
      } else {
        grp[v]++;
        cls[v] = K_OUT;
      }
      expver[t][d] = ver[v];
      if (k != K_IN)
        ver[v]++;
      dgrp[t][d] = grp[v];
      seqgrp[v][seqlen[v]++] = grp[v];
    }
}

static void task_body(int t)
{
  for (int d = 0; d < nd[t]; d++)
    if (dk[t][d] == K_MTX) {
      int n = __atomic_add_fetch(&inflight[dv[t][d]], 1, __ATOMIC_SEQ_CST);
      if (n > 1)
        __atomic_store_n(&max_inflight, n, __ATOMIC_SEQ_CST);
    }
  spin((t * 37) % 400);
  for (int d = 0; d < nd[t]; d++) {
    int v = dv[t][d];
    int pos = __atomic_fetch_add(&logpos[v], 1, __ATOMIC_SEQ_CST);
    logv[v][pos] = t;
    if (dk[t][d] == K_IN) {
      if (version[v] != expver[t][d])
        __atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
    } else {
      version[v]++; /* exclusive: writers and set members never overlap other accesses of v */
    }
  }
  for (int d = 0; d < nd[t]; d++)
    if (dk[t][d] == K_MTX)
      __atomic_sub_fetch(&inflight[dv[t][d]], 1, __ATOMIC_SEQ_CST);
}

static void check_logs(unsigned seed)
{
  for (int v = 0; v < NV; v++) {
    EXPECT(seqlen[v], logpos[v], "seed %u var %d: log length", seed, v);
    for (int p = 0; p < seqlen[v] && p < logpos[v]; p++) {
      int t = logv[v][p], g = -1;
      for (int d = 0; d < nd[t]; d++)
        if (dv[t][d] == v)
          g = dgrp[t][d];
      if (g != seqgrp[v][p]) {
        fail(seqgrp[v][p], g, "seed %u var %d log position %d (task %d): dependence group", seed, v, p, t);
        break;
      }
    }
  }
  EXPECT(0, bad_reads, "seed %u: reads that saw the wrong number of earlier writes", seed);
  EXPECT(0, max_inflight, "seed %u: overlapping members of a mutexinoutset set (max in flight, 0 = never >1)", seed);
  bad_reads = 0;
  max_inflight = 0;
}

/* choose nd[t] distinct variables with kinds below kmax */
static void gen(int t, int ndeps, int kmax)
{
  nd[t] = ndeps;
  for (int d = 0; d < ndeps; d++) {
    int v, dup;
    do {
      v = rnd() % NV;
      dup = 0;
      for (int e = 0; e < d; e++)
        dup |= dv[t][e] == v;
    } while (dup);
    dv[t][d] = v;
    dk[t][d] = rnd() % kmax;
  }
}

static int vars[NV]; /* dependence addresses only */

int main(void)
{
  static const unsigned seeds[] = {3, 555, 271828};
  for (int s = 0; s < 3; s++) {
    rng_state = seeds[s];
    for (int t = 0; t < NTASK; t++) {
      int n = rnd() % 6; /* 0..5 dependences, including none at all */
      gen(t, n, (t % 3 == 0) ? 4 : 3);
    }
    simulate();
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < NTASK; t++) {
      int ins[MAXD], outs[MAXD], ios[MAXD], mxs[MAXD];
      int nin = 0, nout = 0, nio = 0, nmx = 0;
      for (int d = 0; d < nd[t]; d++) {
        switch (dk[t][d]) {
        case K_IN:
          ins[nin++] = dv[t][d];
          break;
        case K_OUT:
          outs[nout++] = dv[t][d];
          break;
        case K_INOUT:
          ios[nio++] = dv[t][d];
          break;
        default:
          mxs[nmx++] = dv[t][d];
          break;
        }
      }
      if (t % 3 != 0) {
        /* in/out/inout only: GCC's original depend-array layout, sized at run time */
#pragma omp task depend(iterator(i = 0 : nin), in : vars[ins[i]]) depend(iterator(i = 0 : nout), out : vars[outs[i]]) \
    depend(iterator(i = 0 : nio), inout : vars[ios[i]]) firstprivate(t)
        task_body(t);
      } else {
        /* with mutexinoutset: the newer layout */
#pragma omp task depend(iterator(i = 0 : nin), in : vars[ins[i]]) depend(iterator(i = 0 : nout), out : vars[outs[i]]) \
    depend(iterator(i = 0 : nio), inout : vars[ios[i]]) depend(iterator(i = 0 : nmx), mutexinoutset : vars[mxs[i]]) \
    firstprivate(t)
        task_body(t);
      }
    }
    check_logs(seeds[s]);
  }
  return failures != 0;
}
