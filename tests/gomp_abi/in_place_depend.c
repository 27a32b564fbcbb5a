/* Tasks with depend clauses that GOMP_task may run in place (src/gomp/
   task.cpp's depend_task: GCC's first depend layout, up to 8 addresses; the
   throttle runs a task here when its earlier siblings on those addresses have
   finished), mixed at random with tasks of more addresses (the general
   path) and if(0) tasks (no priority clause: GCC flags a task that has one
   whatever its value, and such a task never runs in place), in bursts long
   enough to throttle the creator, and checked against the serial meaning: each
   task reads its in addresses into its own log entry and updates its out/inout
   ones in a way that does not commute (x = 3x + id + 1), so a task run before a
   predecessor or after a successor on an address changes a log entry or
   a final value.
   Run under weft at 1, 2 and 4 threads and under libgomp (the reference).
   Optional argument: the number of random rounds (default 8). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kAddrs = 24, kMaxTasks = 3000, kMaxDeps = 10 };
enum { kPlain, kIf0, kKinds };

typedef struct {
  int kind;
  int n;              /* addresses named */
  int addr[kMaxDeps]; /* distinct */
  int out[kMaxDeps];  /* 1: inout (out), 0: in */
} spec;

static spec g[kMaxTasks];
static uint64_t x[kAddrs], want_x[kAddrs];
static uint64_t logv[kMaxTasks], want_log[kMaxTasks];
static int ran[kMaxTasks];

static uint64_t rng;
static unsigned rnd(unsigned n) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(rng >> 33) % n;
}

/* A task's body, the same in the serial meaning and under the runtime. */
static void body(int i, uint64_t *xs, uint64_t *log) {
  uint64_t acc = 0;
  for (int k = 0; k < g[i].n; ++k)
    if (!g[i].out[k])
      acc = acc * 1000003u + xs[g[i].addr[k]];
  for (int k = 0; k < g[i].n; ++k)
    if (g[i].out[k])
      xs[g[i].addr[k]] = xs[g[i].addr[k]] * 3u + (uint64_t)i + 1u;
  log[i] = acc;
}

/* One task construct with its addresses in the clauses GCC lowers: n in
   [0, kMaxDeps]; the first `nout` are inout, the rest in (spawn sorts them
   so). Each arity is its own construct (depend clauses are static). */
#define A(k) x[g[i].addr[k]]
static void spawn(int i) {
  int n = g[i].n, nout = 0;
  while (nout < n && g[i].out[nout])
    ++nout;
  int if_clause = g[i].kind != kIf0;

#define RUN                                                                    \
  do {                                                                         \
    body(i, x, logv);                                                          \
    __atomic_add_fetch(&ran[i], 1, __ATOMIC_RELAXED);                          \
  } while (0)
  /* The addresses 0..nout-1 inout, nout..n-1 in: one construct for each
     (arity, nout) that make() draws. */
  switch (n) {
  case 0: {
#pragma omp task if (if_clause) firstprivate(i)
    RUN;
  } break;
  case 1:
    if (nout) {
#pragma omp task if (if_clause) firstprivate(i) depend(inout : A(0))
      RUN;
    } else {
#pragma omp task if (if_clause) firstprivate(i) depend(in : A(0))
      RUN;
    }
    break;
  case 2:
    if (nout == 2) {
#pragma omp task if (if_clause) firstprivate(i) depend(inout : A(0), A(1))
      RUN;
    } else if (nout == 1) {
#pragma omp task if (if_clause) firstprivate(i) depend(inout                   \
                                                       : A(0)) depend(in       \
                                                                      : A(1))
      RUN;
    } else {
#pragma omp task if (if_clause) firstprivate(i) depend(in : A(0), A(1))
      RUN;
    }
    break;
  case 4:
    if (nout >= 2) {
#pragma omp task if (if_clause) firstprivate(i) depend(inout                   \
                                                       : A(0), A(1))           \
    depend(in                                                                  \
           : A(2), A(3))
      RUN;
    } else {
#pragma omp task if (if_clause) firstprivate(i)                                \
    depend(in                                                                  \
           : A(0), A(1), A(2), A(3))
      RUN;
    }
    break;
  case 8: {
#pragma omp task if (if_clause) firstprivate(i) depend(inout                   \
                                                       : A(0))                 \
    depend(in                                                                  \
           : A(1), A(2), A(3), A(4), A(5), A(6), A(7))
    RUN;
  } break;
  default: /* 10: more than the in-place path takes */
  {
#pragma omp task if (if_clause) firstprivate(i) depend(inout                   \
                                                       : A(0), A(1))           \
    depend(in                                                                  \
           : A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9))
    RUN;
  } break;
  }
#undef RUN
}
#undef A

/* A random task: arity from {0,1,2,4,8,10}, distinct addresses, the out
   ones first with the count the construct for that arity names. */
static void make(int i) {
  static const int arity[] = {0, 1, 1, 1, 2, 2, 4, 8, 10};
  spec *s = &g[i];
  s->kind = rnd(10) == 0 ? (int)(1 + rnd(kKinds - 1)) : kPlain;
  s->n = arity[rnd(sizeof arity / sizeof arity[0])];
  for (int k = 0; k < s->n; ++k) {
    int a, dup;
    do {
      a = (int)rnd(kAddrs);
      dup = 0;
      for (int j = 0; j < k; ++j)
        dup |= s->addr[j] == a;
    } while (dup);
    s->addr[k] = a;
    s->out[k] = 0;
  }
  int nout = 0;
  switch (s->n) {
  case 1:
    nout = (int)rnd(2);
    break;
  case 2:
    nout = (int)rnd(3);
    break;
  case 4:
    nout = rnd(2) ? 2 : 0;
    break;
  case 8:
    nout = 1;
    break;
  case 10:
    nout = 2;
    break;
  }
  for (int k = 0; k < nout; ++k)
    s->out[k] = 1;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 8;
  int failures = 0;
  for (int r = 0; r < rounds; ++r) {
    rng = 0x9e3779b97f4a7c15ull * (uint64_t)(r + 1);
    int ntasks = 200 + (int)rnd(kMaxTasks - 200);
    for (int i = 0; i < ntasks; ++i) {
      make(i);
      ran[i] = 0;
    }
    for (int a = 0; a < kAddrs; ++a)
      x[a] = want_x[a] = (uint64_t)a * 7u + 1u;
    for (int i = 0; i < ntasks; ++i)
      body(i, want_x, want_log);
#pragma omp parallel
#pragma omp single
    {
      /* Bursts: a taskwait now and then, so that the creator is throttled
         and released several times. */
      for (int i = 0; i < ntasks; ++i) {
        spawn(i);
        if (rnd(400) == 0) {
#pragma omp taskwait
        }
      }
    }
    for (int i = 0; i < ntasks; ++i) {
      if (ran[i] != 1) {
        if (failures++ < 10)
          fprintf(stderr, "in_place_depend: round %d task %d ran %d times\n", r,
                  i, ran[i]);
      } else if (logv[i] != want_log[i]) {
        if (failures++ < 10)
          fprintf(stderr,
                  "in_place_depend: round %d task %d (%d addresses) read "
                  "%llx, serially %llx\n",
                  r, i, g[i].n, (unsigned long long)logv[i],
                  (unsigned long long)want_log[i]);
      }
    }
    for (int a = 0; a < kAddrs; ++a)
      if (x[a] != want_x[a] && failures++ < 10)
        fprintf(stderr,
                "in_place_depend: round %d address %d ends %llx, serially "
                "%llx\n",
                r, a, (unsigned long long)x[a], (unsigned long long)want_x[a]);
  }
  if (failures) {
    fprintf(stderr, "in_place_depend: %d failures\n", failures);
    return 1;
  }
  printf("in_place_depend: %d rounds ok (%d threads)\n", rounds,
         omp_get_max_threads());
  return 0;
}
