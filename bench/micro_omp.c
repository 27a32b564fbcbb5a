/* micro_omp — the task-overhead microbenchmarks (issue 2) written with OpenMP
 * tasks, to compare weft against libgomp and LLVM libomp on one binary.
 *
 * Built by gcc with -fopenmp and linked to libgomp only. The same binary runs
 * under LLVM libomp with LD_PRELOAD=.../libomp.so.5 (libomp implements the
 * GOMP_* entry points); which library really provides OpenMP is found at run
 * time with dladdr() and reported as "runtime": "libgomp" or "libomp" (or
 * "weft" under `weft run`, bench/run_gomp.py; see omp_identify.h).
 *
 * Workloads (the same in micro_weft.cpp; docs/benchmarks.md):
 *   task-free   T independent tasks, each with N inout dependences on
 *               addresses unique to that task (&buf[i*N + k], k < N), then
 *               one taskwait. Creation + scheduling + retirement with no
 *               ordering between tasks (Picos paper, Task-Free).
 *   task-chain  T tasks, each with N inout dependences on the same N
 *               addresses (&buf[k], k < N): every task depends on the
 *               previous one; then one taskwait (Picos paper, Task-Chain).
 *               With N = 0 it is task-free with N = 0.
 *   emptytask   chains of 1000 tasks, each adding 1 to a shared counter with
 *               inout on it (so each depends on the previous), a taskwait
 *               after each chain, T/1000 chains (Nexus++ paper, emptytask).
 * Task bodies: task-free (and task-chain N = 0) adds 1 to its own slot of a
 * volatile array; task-chain N > 0 stores its predecessor's slot + 1 into its
 * own, which checks the order; emptytask adds 1 to the volatile counter. Each
 * repetition is checked (micro_check) and the program aborts with a message
 * when a result is wrong.
 *
 * Timing: CLOCK_MONOTONIC from just before the first task is created to the
 * end of the final taskwait, per repetition, each repetition inside its own
 * `#pragma omp parallel num_threads(P)` + `#pragma omp single` (team start is
 * not timed; each repetition starts with an empty dependence hash); one
 * untimed warm-up repetition first. ns_per_task = elapsed / T; the printed
 * ns_per_task is the median over the repetitions.
 *
 * CLI: micro_omp --pattern task-free|task-chain|emptytask --deps N (0..15)
 *      --tasks T (200000) --reps R (5) --threads P
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>

#include "micro_common.h"
#include "omp_identify.h"

/* Explicit depend lists: D<n>(b) is b[0], ..., b[n-1]. OpenMP pragmas are
 * macro-expanded, and an explicit list is what a programmer writes (no
 * iterator expansion at run time). */
#define D1(b) b[0]
#define D2(b) D1(b), b[1]
#define D3(b) D2(b), b[2]
#define D4(b) D3(b), b[3]
#define D5(b) D4(b), b[4]
#define D6(b) D5(b), b[5]
#define D7(b) D6(b), b[6]
#define D8(b) D7(b), b[7]
#define D9(b) D8(b), b[8]
#define D10(b) D9(b), b[9]
#define D11(b) D10(b), b[10]
#define D12(b) D11(b), b[11]
#define D13(b) D12(b), b[12]
#define D14(b) D13(b), b[13]
#define D15(b) D14(b), b[14]
#define PRAGMA(x) _Pragma(#x)

/* task-free: task i depends on buf[i*n .. i*n + n-1]. */
#define FREE_CASE(n)                                                           \
  case n:                                                                      \
    for (long i = 0; i < tasks; i++) {                                         \
      long *b = buf + i * n;                                                   \
      volatile int *d = done + i + 1;                                          \
      (void)b; /* -Wunused does not see depend clauses */                      \
      PRAGMA(omp task depend(inout : D##n(b)) firstprivate(d))                 \
      *d = *d + 1;                                                             \
    }                                                                          \
    break;

static void run_task_free(int n, long tasks, long *buf, volatile int *done) {
  (void)buf; /* used only in depend clauses, which -Wunused does not see */
  switch (n) {
  case 0:
    for (long i = 0; i < tasks; i++) {
      volatile int *d = done + i + 1;
#pragma omp task firstprivate(d)
      *d = *d + 1;
    }
    break;
    FREE_CASE(1);
    FREE_CASE(2);
    FREE_CASE(3);
    FREE_CASE(4);
    FREE_CASE(5);
    FREE_CASE(6);
    FREE_CASE(7);
    FREE_CASE(8);
    FREE_CASE(9);
    FREE_CASE(10);
    FREE_CASE(11);
    FREE_CASE(12);
    FREE_CASE(13);
    FREE_CASE(14);
    FREE_CASE(15);
  default:
    micro_die("task-free: %d deps not supported", n);
  }
#pragma omp taskwait
}

/* task-chain: every task depends on buf[0 .. n-1]; task i stores
 * done[i] + 1 into done[i + 1]. */
#define CHAIN_CASE(n)                                                          \
  case n:                                                                      \
    for (long i = 0; i < tasks; i++) {                                         \
      volatile int *d = done + i + 1;                                          \
      PRAGMA(omp task depend(inout : D##n(buf)) firstprivate(d))               \
      d[0] = d[-1] + 1;                                                        \
    }                                                                          \
    break;

static void run_task_chain(int n, long tasks, long *buf, volatile int *done) {
  (void)buf;
  switch (n) {
  case 0: /* no dependences: identical to task-free with 0 deps */
    run_task_free(0, tasks, buf, done);
    return;
    CHAIN_CASE(1);
    CHAIN_CASE(2);
    CHAIN_CASE(3);
    CHAIN_CASE(4);
    CHAIN_CASE(5);
    CHAIN_CASE(6);
    CHAIN_CASE(7);
    CHAIN_CASE(8);
    CHAIN_CASE(9);
    CHAIN_CASE(10);
    CHAIN_CASE(11);
    CHAIN_CASE(12);
    CHAIN_CASE(13);
    CHAIN_CASE(14);
    CHAIN_CASE(15);
  default:
    micro_die("task-chain: %d deps not supported", n);
  }
#pragma omp taskwait
}

/* emptytask: chains of MICRO_CHAIN_LEN tasks on one counter. */
static void run_emptytask(long tasks, volatile long *counter) {
  for (long c = 0; c < tasks / MICRO_CHAIN_LEN; c++) {
    for (int i = 0; i < MICRO_CHAIN_LEN; i++) {
#pragma omp task depend(inout : counter[0]) firstprivate(counter)
      counter[0] = counter[0] + 1;
    }
#pragma omp taskwait
  }
}

/* Which runtime provides the OpenMP entry points this binary calls:
 * "libgomp", "libomp" or "weft" (omp_identify.h: each entry point is resolved
 * as the dynamic linker binds the calls, dladdr names the object that
 * defines it). */
static const char *omp_library(const char **path) {
  /* Every OpenMP entry point the binary imports (nm -D), with its version. */
  static const char *const syms[] = {
      "GOMP_task@GOMP_2.0",         "GOMP_parallel@GOMP_4.0",
      "GOMP_single_start@GOMP_1.0", "GOMP_barrier@GOMP_1.0",
      "GOMP_taskwait@GOMP_2.0",     "omp_get_num_threads@OMP_1.0"};
  char err[4200];
  const char *name = omp_identify(syms, (int)(sizeof syms / sizeof syms[0]),
                                  path, err, sizeof err);
  if (!name)
    micro_die("%s", err);
  return name;
}

int main(int argc, char **argv) {
  micro_options o = micro_parse_args(argc, argv);
  const char *path = NULL;
  const char *runtime = omp_library(&path);

  int n = o.deps;
  long nbuf = o.pattern == MICRO_TASK_FREE ? o.tasks * n : n;
  long *buf = (long *)micro_alloc(sizeof(long) * (size_t)nbuf);
  int *done = (int *)micro_alloc(sizeof(int) * (size_t)(o.tasks + 1));
  volatile long counter = 0;
  double *ns = (double *)micro_alloc(sizeof(double) * (size_t)o.reps);
  int team = 0;

  for (int rep = -1; rep < o.reps; rep++) { /* rep -1: warm-up */
    memset(done, 0, sizeof(int) * (size_t)(o.tasks + 1));
    counter = 0;
    long long t0 = 0, t1 = 0;
    /* A fresh team per repetition: the encountering task (and so the
     * runtime's dependence hash of the parent) starts empty each time. */
#pragma omp parallel num_threads(o.threads)
#pragma omp single
    {
      team = omp_get_num_threads();
      t0 = micro_now_ns();
      switch (o.pattern) {
      case MICRO_TASK_FREE:
        run_task_free(n, o.tasks, buf, done);
        break;
      case MICRO_TASK_CHAIN:
        run_task_chain(n, o.tasks, buf, done);
        break;
      case MICRO_EMPTYTASK:
        run_emptytask(o.tasks, &counter);
        break;
      }
      t1 = micro_now_ns();
    }
    if (team != o.threads)
      micro_die("%s gave a team of %d threads, %d asked", runtime, team,
                o.threads);
    micro_check(&o, done, counter, runtime, rep);
    if (rep >= 0)
      ns[rep] = (double)(t1 - t0) / (double)o.tasks;
  }

  char extra[4200];
  snprintf(extra, sizeof extra, "\"library\": \"%s\"", path);
  micro_print_json(runtime, &o, ns, extra);
  free(ns);
  free(done);
  free(buf);
  return 0;
}
