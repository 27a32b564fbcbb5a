/* Random task dependence graphs: gen() picks each task's dependences (in,
   out, inout, mutexinoutset on NV variables), simulate() works out the
   sequential order, task_body() logs what each task saw, and check_logs()
   compares the per-variable logs with that order.

   Each graph has ntask tasks: NTASK, or NTASK scaled by WEFT_TEST_SCALE
   when the registration sets it (graph_tasks(); the slow engine models',
   tests/openmp/CMakeLists.txt). Reports through EXPECT()/fail()
   (omp_check.h): define NAME first if the program sets it. Works as C (gnu11) and C++ (gnu++20); the functions are
   marked unused, so unused ones do not warn. */
#ifndef WEFT_RANDOM_GRAPH_H
#define WEFT_RANDOM_GRAPH_H

#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

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

/* The tasks of each graph (graph_tasks() sets it). */
static int ntask = NTASK;

/* NTASK times WEFT_TEST_SCALE (a number in (0, 1]; unset: 1), at least
   NTASK / 8: sets ntask and says so on stderr when it is not NTASK. The
   graphs of a seed are the same, cut after ntask tasks. */
__attribute__((unused)) static int graph_tasks(void)
{
  const char *s = getenv("WEFT_TEST_SCALE");
  double scale = s && *s ? atof(s) : 1.0;
  if (!(scale > 0 && scale <= 1)) {
    if (s && *s)
      fprintf(stderr, "%s: WEFT_TEST_SCALE=%s is not in (0, 1]: %d tasks per graph\n", omp_source_name(), s, NTASK);
    scale = 1.0;
  }
  ntask = (int)(NTASK * scale);
  if (ntask < NTASK / 8)
    ntask = NTASK / 8;
  if (ntask != NTASK)
    fprintf(stderr, "%s: %d tasks per graph (WEFT_TEST_SCALE=%s)\n", omp_source_name(), ntask, s);
  return ntask;
}
__attribute__((unused)) static unsigned rnd(void)
{
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 16) & 0x7fff;
}

/* sequential semantics: consecutive reads (or consecutive mutexinoutset accesses) form one group,
   every out/inout access is a group of its own */
__attribute__((unused)) static void simulate(void)
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
  for (int t = 0; t < ntask; t++)
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

__attribute__((unused)) static void task_body(int t)
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

__attribute__((unused)) static void check_logs(unsigned seed)
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
__attribute__((unused)) static void gen(int t, int ndeps, int kmax)
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

#endif
