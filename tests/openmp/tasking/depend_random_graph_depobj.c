// Checks random dependence graphs built from depend objects (3 seeds, 2000 tasks, 3 depobjs per task chosen at run time among in/out/inout/mutexinoutset on 16 variables): logs respect sequential order, mutexinoutset members never overlap.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_random_graph_depobj.c"

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

static int vars[NV];               /* dependence addresses only */
static omp_depend_t objs[NV][4];   /* one depend object per (variable, kind) */

int main(void)
{
  for (int v = 0; v < NV; v++) {
    omp_depend_t *o;
    o = &objs[v][K_IN];
#pragma omp depobj(*o) depend(in : vars[v])
    o = &objs[v][K_OUT];
#pragma omp depobj(*o) depend(out : vars[v])
    o = &objs[v][K_INOUT];
#pragma omp depobj(*o) depend(inout : vars[v])
    o = &objs[v][K_MTX];
#pragma omp depobj(*o) depend(mutexinoutset : vars[v])
  }
  static const unsigned seeds[] = {7, 4242, 31337};
  for (int s = 0; s < 3; s++) {
    rng_state = seeds[s];
    for (int t = 0; t < NTASK; t++)
      gen(t, 3, 4); /* three distinct variables, kinds in/out/inout/mutexinoutset */
    simulate();
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < NTASK; t++) {
      omp_depend_t *p0 = &objs[dv[t][0]][dk[t][0]];
      omp_depend_t *p1 = &objs[dv[t][1]][dk[t][1]];
      omp_depend_t *p2 = &objs[dv[t][2]][dk[t][2]];
      if (t % 2) {
#pragma omp task depend(depobj : *p0, *p1, *p2) firstprivate(t)
        task_body(t);
      } else {
        /* same three dependences, one via a plain clause when its kind allows */
        int *a = &vars[dv[t][0]];
        switch (dk[t][0]) {
        case K_IN:
#pragma omp task depend(in : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        case K_OUT:
#pragma omp task depend(out : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        case K_INOUT:
#pragma omp task depend(inout : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        default:
#pragma omp task depend(mutexinoutset : *a) depend(depobj : *p1, *p2) firstprivate(t)
          task_body(t);
          break;
        }
      }
    }
    check_logs(seeds[s]);
  }
  for (int v = 0; v < NV; v++)
    for (int k = 0; k < 4; k++) {
      omp_depend_t *o = &objs[v][k];
#pragma omp depobj(*o) destroy
    }
  return failures != 0;
}
