/* epcc_omp — the overhead of OpenMP constructs, measured the way the EPCC
 * OpenMP microbenchmarks (syncbench, schedbench, taskbench) measure it, to
 * compare weft's GOMP ABI against libgomp and LLVM libomp on one binary.
 *
 * Built by gcc with -fopenmp -O2 and linked to libgomp only, like micro_omp.
 * The same binary runs as built (libgomp), with
 * LD_PRELOAD=.../libomp.so.5 (LLVM libomp) and under `weft run`; which
 * runtime really serves each construct is found at run time (omp_identify.h:
 * dladdr on omp_get_num_threads, GOMP_parallel and every other entry point
 * the construct's code calls) and reported as "runtime". A construct whose
 * entry points come from two runtimes is an error.
 *
 * Method (EPCC): a delay(n) loop is calibrated to take --delay-us (0.1 us).
 * For each construct, a test function runs R inner repetitions of the
 * construct with the delay inside it; a reference function runs the same
 * delays without the construct. R is calibrated so that the test takes
 * about --target-us (1000 us). Each outer repetition (--reps, 21) times the
 * reference and then the test; its overhead is
 *     (t_test - t_ref) / (R x units per repetition)
 * and the printed overhead_us is the median over the outer repetitions.
 *
 *   construct      per      one inner repetition                 reference
 *   parallel       region   parallel { delay }                   serial delay
 *   for            loop     (in one parallel) for i<P: delay     serial delay
 *                           (static schedule + its barrier)
 *   parallel-for   region   parallel for i<P: delay              serial delay
 *   barrier        barrier  (in one parallel) delay; barrier     serial delay
 *   single         single   (in one parallel) single { delay }   serial delay
 *   critical       section  critical { delay }, R/P per thread   serial delay
 *   lock           pair     set_lock; delay; unset_lock, R/P     serial delay
 *   atomic         update   atomic x += 1 (double), R/P each     serial x += 1
 *                                                                (volatile)
 *   reduction      region   parallel reduction(+:x) { delay; x += 1 }
 *                                                                serial delay
 *   dynamic        chunk    (in one parallel) for schedule(dynamic,1) nowait
 *                           over 128*P iterations (one delay each); per
 *                           chunk = per loop / 128 (chunks per thread)
 *                                                    128 delays per thread
 *   guided         chunk    the same with schedule(guided,1); per chunk = per
 *                           loop / (chunks per loop / P), the chunks the
 *                           runtime hands out counted in an untimed pass
 *                                                    128 delays per thread
 *   sections       section  (in one parallel) sections nowait with 64
 *                           sections (one delay each); per section = per
 *                           construct / (64 / P)     64/P delays per thread
 *   taskloop       taskloop (in parallel + single) taskloop num_tasks(P)
 *                           over P iterations: P tasks of one delay
 *                                                                serial delay
 *   taskloop-task  task     (in parallel + single) taskloop grainsize(1)
 *                           over 32*P iterations; per task = per taskloop /
 *                           32 (tasks per thread)    32 serial delays
 *
 * Each test timing (and each parallel reference) follows an untimed
 * parallel region (wake_team). A timing during which the process was
 * preempted (getrusage's involuntary context switches) is repeated, up to
 * 3 x --reps in all; the median is over the undisturbed ones, or over all
 * with "noisy": true when fewer than 3 were undisturbed. Each record also
 * carries line_rtt_ns, the cache-line round trip between threads 0 and 1.
 *
 * P = --threads (omp_set_num_threads(P); the team size is checked). "serial"
 * references run on the initial thread outside any parallel region, the
 * others in a parallel region on every thread. Per-chunk, per-section and
 * per-task figures are wall-clock overhead divided by the units each thread
 * executes, i.e. thread-time overhead per unit. Where it costs nothing in the
 * timed code, the result is checked (iterations, sections, tasks, critical
 * sections and atomic updates counted; reduction sum), and the program exits
 * with status 1 and a message if a check fails.
 *
 * CLI: epcc_omp [--construct NAME[,NAME...]|all] [--threads P] [--reps R]
 *               [--quick] [--target-us T] [--delay-us D] [--list]
 * Prints one JSON object per construct, one line each, to stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "omp_identify.h"

#define ITERS_PER_THREAD 128 /* dynamic, guided: iterations per thread */
#define NSECTIONS 64         /* sections: sections per construct */
#define TASKS_PER_THREAD 32  /* taskloop-task: tasks per thread */
#define MAX_OUTER 1000

static int nthreads;                 /* P */
static int delaylength;              /* delay() loop count for --delay-us */
static _Thread_local long tls_count; /* tasks run by this thread */

/* The entry points gcc 12 emits for the guided loop below (nm -D); called by
 * hand only to count the chunks the runtime hands out. */
bool GOMP_loop_nonmonotonic_guided_start(long start, long end, long incr,
                                         long chunk_size, long *istart,
                                         long *iend);
bool GOMP_loop_nonmonotonic_guided_next(long *istart, long *iend);
void GOMP_loop_end_nowait(void);

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("epcc_omp: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fflush(stdout);
  exit(1);
}

static void expect(const char *what, long got, long want) {
  if (got != want)
    die("%s: counted %ld, expected %ld (wrong result from the runtime)", what,
        got, want);
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(const double *v, int n) {
  double s[3 * MAX_OUTER];
  memcpy(s, v, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof(double), cmp_double);
  return (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Involuntary context switches of the process so far, all threads: one
 * during a timing means that a thread lost its CPU to other work (a shared
 * machine), and that timing measures the OS scheduler's time slice, not the
 * runtime. */
static long preemptions(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_nivcsw;
}

/* EPCC's delay: a dependent chain of float additions. */
__attribute__((noinline)) static void delay(int n) {
  float a = 0.0f;
  for (int i = 0; i < n; i++)
    a += (float)i;
  if (a < 0.0f)
    printf("%f\n", (double)a);
}

/* ---- the tests: R inner repetitions of the construct ---- */

static void test_parallel(long reps) {
  for (long j = 0; j < reps; j++) {
#pragma omp parallel
    delay(delaylength);
  }
}

static void test_for(long reps) {
  long total = 0;
#pragma omp parallel reduction(+ : total)
  for (long j = 0; j < reps; j++) {
#pragma omp for
    for (int i = 0; i < nthreads; i++) {
      delay(delaylength);
      total++;
    }
  }
  expect("for: iterations", total, reps * nthreads);
}

static void test_parallel_for(long reps) {
  for (long j = 0; j < reps; j++) {
#pragma omp parallel for
    for (int i = 0; i < nthreads; i++)
      delay(delaylength);
  }
}

static void test_barrier(long reps) {
#pragma omp parallel
  for (long j = 0; j < reps; j++) {
    delay(delaylength);
#pragma omp barrier
  }
}

static void test_single(long reps) {
  long total = 0;
#pragma omp parallel
  for (long j = 0; j < reps; j++) {
#pragma omp single
    {
      delay(delaylength);
      total++;
    }
  }
  expect("single: bodies run", total, reps);
}

static void test_critical(long reps) {
  long total = 0;
#pragma omp parallel
  for (long j = 0; j < reps / nthreads; j++) {
#pragma omp critical
    {
      delay(delaylength);
      total++;
    }
  }
  expect("critical: sections run", total, reps);
}

static void test_lock(long reps) {
  long total = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel
  for (long j = 0; j < reps / nthreads; j++) {
    omp_set_lock(&lock);
    delay(delaylength);
    total++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  expect("lock: sections run", total, reps);
}

static void test_atomic(long reps) {
  double sum = 0.0;
#pragma omp parallel
  for (long j = 0; j < reps / nthreads; j++) {
#pragma omp atomic
    sum += 1.0;
  }
  expect("atomic: sum", (long)sum, reps);
}

static void test_reduction(long reps) {
  long total = 0;
  for (long j = 0; j < reps; j++) {
    long x = 0;
#pragma omp parallel reduction(+ : x)
    {
      delay(delaylength);
      x += 1;
    }
    total += x;
  }
  expect("reduction: sum", total, reps * nthreads);
}

static void test_dynamic(long reps) {
  long total = 0;
  const long n = (long)ITERS_PER_THREAD * nthreads;
#pragma omp parallel reduction(+ : total)
  for (long j = 0; j < reps; j++) {
#pragma omp for schedule(dynamic, 1) nowait
    for (long i = 0; i < n; i++) {
      delay(delaylength);
      total++;
    }
  }
  expect("dynamic: iterations", total, reps * n);
}

static void test_guided(long reps) {
  long total = 0;
  const long n = (long)ITERS_PER_THREAD * nthreads;
#pragma omp parallel reduction(+ : total)
  for (long j = 0; j < reps; j++) {
#pragma omp for schedule(guided, 1) nowait
    for (long i = 0; i < n; i++) {
      delay(delaylength);
      total++;
    }
  }
  expect("guided: iterations", total, reps * n);
}

/* The chunks one guided loop like test_guided's is cut into, counted by
 * driving the loop's entry points by hand (untimed; the sequence of chunk
 * sizes depends only on the runtime's formula, not on which thread asks). */
static long guided_chunks(void) {
  long chunks = 0;
  const long n = (long)ITERS_PER_THREAD * nthreads;
#pragma omp parallel reduction(+ : chunks)
  {
    long s, e;
    if (GOMP_loop_nonmonotonic_guided_start(0, n, 1, 1, &s, &e)) {
      do
        chunks++;
      while (GOMP_loop_nonmonotonic_guided_next(&s, &e));
    }
    GOMP_loop_end_nowait();
  }
  return chunks;
}

#define PRAGMA(x) _Pragma(#x)
#define SECTION                                                                \
  PRAGMA(omp section) {                                                        \
    delay(delaylength);                                                        \
    total++;                                                                   \
  }
#define SECTIONS4 SECTION SECTION SECTION SECTION
#define SECTIONS16 SECTIONS4 SECTIONS4 SECTIONS4 SECTIONS4
#define SECTIONS64 SECTIONS16 SECTIONS16 SECTIONS16 SECTIONS16

static void test_sections(long reps) {
  long total = 0;
#pragma omp parallel reduction(+ : total)
  for (long j = 0; j < reps; j++) {
#pragma omp sections nowait
    { SECTIONS64 }
  }
  expect("sections: sections run", total, reps * NSECTIONS);
}

static void test_taskloop(long reps) {
  long total = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp single
    for (long j = 0; j < reps; j++) {
#pragma omp taskloop num_tasks(nthreads)
      for (int i = 0; i < nthreads; i++) {
        delay(delaylength);
        tls_count++;
      }
    }
    /* After the single's barrier every task has run. */
    total += tls_count;
    tls_count = 0;
  }
  expect("taskloop: tasks run", total, reps * nthreads);
}

static void test_taskloop_task(long reps) {
  long total = 0;
  const int n = TASKS_PER_THREAD * nthreads;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp single
    for (long j = 0; j < reps; j++) {
#pragma omp taskloop grainsize(1)
      for (int i = 0; i < n; i++) {
        delay(delaylength);
        tls_count++;
      }
    }
    total += tls_count;
    tls_count = 0;
  }
  expect("taskloop-task: tasks run", total, reps * n);
}

/* ---- the references: the same delays without the construct ---- */

static void ref_serial(long delays) {
  for (long j = 0; j < delays; j++)
    delay(delaylength);
}

static void ref_parallel(long delays_per_thread) {
#pragma omp parallel
  for (long j = 0; j < delays_per_thread; j++)
    delay(delaylength);
}

static void ref_atomic(long updates) {
  volatile double sum = 0.0;
  for (long j = 0; j < updates; j++)
    sum += 1.0;
}

/* ---- the table of constructs ---- */

typedef enum { REF_SERIAL, REF_PARALLEL, REF_ATOMIC } ref_kind;
typedef enum {
  UNIT_ONE,      /* one construct per inner repetition */
  UNIT_ITERS,    /* ITERS_PER_THREAD chunks per thread */
  UNIT_GUIDED,   /* counted chunks / P per thread */
  UNIT_SECTIONS, /* NSECTIONS / P sections per thread */
  UNIT_TASKS     /* TASKS_PER_THREAD tasks per thread */
} unit_kind;

#define COMMON_SYMS                                                            \
  "omp_get_num_threads@OMP_1.0", "GOMP_parallel@GOMP_4.0",                     \
      "omp_set_num_threads@OMP_1.0", "omp_get_thread_num@OMP_1.0"
#define MAX_SYMS 12

typedef struct bench {
  const char *name;
  const char *per; /* what overhead_us is per */
  void (*test)(long reps);
  ref_kind ref;
  unit_kind unit;
  int reps_per_thread; /* R is split among the threads (a multiple of P) */
  /* Every OpenMP entry point the test's and the reference's code calls
   * (nm -D of the binary, gcc 12 -O2), NULL-terminated. */
  const char *syms[MAX_SYMS];
} bench;

/* clang-format off */
static const bench benches[] = {
    {"parallel", "region", test_parallel, REF_SERIAL, UNIT_ONE, 0,
     {COMMON_SYMS, NULL}},
    {"for", "loop", test_for, REF_SERIAL, UNIT_ONE, 0,
     {COMMON_SYMS, "GOMP_barrier@GOMP_1.0", NULL}},
    {"parallel-for", "region", test_parallel_for, REF_SERIAL, UNIT_ONE, 0,
     {COMMON_SYMS, NULL}},
    {"barrier", "barrier", test_barrier, REF_SERIAL, UNIT_ONE, 0,
     {COMMON_SYMS, "GOMP_barrier@GOMP_1.0", NULL}},
    {"single", "single", test_single, REF_SERIAL, UNIT_ONE, 0,
     {COMMON_SYMS, "GOMP_single_start@GOMP_1.0", "GOMP_barrier@GOMP_1.0",
      NULL}},
    {"critical", "critical section", test_critical, REF_SERIAL, UNIT_ONE, 1,
     {COMMON_SYMS, "GOMP_critical_start@GOMP_1.0",
      "GOMP_critical_end@GOMP_1.0", NULL}},
    {"lock", "lock/unlock pair", test_lock, REF_SERIAL, UNIT_ONE, 1,
     {COMMON_SYMS, "omp_init_lock@OMP_3.0", "omp_set_lock@OMP_3.0",
      "omp_unset_lock@OMP_3.0", "omp_destroy_lock@OMP_3.0", NULL}},
    {"atomic", "atomic update", test_atomic, REF_ATOMIC, UNIT_ONE, 1,
     {COMMON_SYMS, NULL}},
    {"reduction", "region", test_reduction, REF_SERIAL, UNIT_ONE, 0,
     {COMMON_SYMS, NULL}},
    {"dynamic", "chunk", test_dynamic, REF_PARALLEL, UNIT_ITERS, 0,
     {COMMON_SYMS, "GOMP_loop_nonmonotonic_dynamic_start@GOMP_4.5",
      "GOMP_loop_nonmonotonic_dynamic_next@GOMP_4.5",
      "GOMP_loop_end_nowait@GOMP_1.0", NULL}},
    {"guided", "chunk", test_guided, REF_PARALLEL, UNIT_GUIDED, 0,
     {COMMON_SYMS, "GOMP_loop_nonmonotonic_guided_start@GOMP_4.5",
      "GOMP_loop_nonmonotonic_guided_next@GOMP_4.5",
      "GOMP_loop_end_nowait@GOMP_1.0", NULL}},
    {"sections", "section", test_sections, REF_PARALLEL, UNIT_SECTIONS, 0,
     {COMMON_SYMS, "GOMP_sections_start@GOMP_1.0",
      "GOMP_sections_next@GOMP_1.0", "GOMP_sections_end_nowait@GOMP_1.0",
      NULL}},
    {"taskloop", "taskloop", test_taskloop, REF_SERIAL, UNIT_ONE, 0,
     {COMMON_SYMS, "GOMP_single_start@GOMP_1.0", "GOMP_barrier@GOMP_1.0",
      "GOMP_taskloop@GOMP_4.5", NULL}},
    {"taskloop-task", "task", test_taskloop_task, REF_SERIAL, UNIT_TASKS, 0,
     {COMMON_SYMS, "GOMP_single_start@GOMP_1.0", "GOMP_barrier@GOMP_1.0",
      "GOMP_taskloop@GOMP_4.5", NULL}},
};
/* clang-format on */
#define NBENCH ((int)(sizeof benches / sizeof benches[0]))

/* Units of overhead each thread executes per inner repetition; the
 * reference's delays per thread (parallel) or in all (serial) per inner
 * repetition are the same number. */
static double units_per_rep(const bench *b, long guided) {
  switch (b->unit) {
  case UNIT_ONE:
    return 1.0;
  case UNIT_ITERS:
    return ITERS_PER_THREAD;
  case UNIT_GUIDED:
    return (double)guided / nthreads;
  case UNIT_SECTIONS:
    return (double)NSECTIONS / nthreads;
  case UNIT_TASKS:
    return TASKS_PER_THREAD;
  }
  return 1.0;
}

static double work_per_rep(const bench *b) {
  switch (b->unit) {
  case UNIT_ITERS:
  case UNIT_GUIDED:
    return ITERS_PER_THREAD;
  case UNIT_SECTIONS:
    return (double)NSECTIONS / nthreads;
  case UNIT_TASKS:
    return TASKS_PER_THREAD;
  case UNIT_ONE:
    break;
  }
  return 1.0;
}

/* An untimed parallel region just before a timing, so that the team's
 * threads are awake (spinning, not asleep in the kernel) when it starts: on
 * a VM a vCPU that went idle can take milliseconds to run again, and the
 * serial references leave the other threads idle for a millisecond. */
static void wake_team(void) {
#pragma omp parallel
  delay(delaylength);
}

static double time_test(const bench *b, long reps) {
  wake_team();
  double t0 = now_us();
  b->test(reps);
  return now_us() - t0;
}

static double time_ref(const bench *b, long reps) {
  long work = (long)(reps * work_per_rep(b) + 0.5);
  if (b->ref == REF_PARALLEL)
    wake_team();
  double t0 = now_us();
  switch (b->ref) {
  case REF_SERIAL:
    ref_serial(work);
    break;
  case REF_PARALLEL:
    ref_parallel(work);
    break;
  case REF_ATOMIC:
    ref_atomic(work);
    break;
  }
  return now_us() - t0;
}

/* R such that the test takes about target_us (EPCC: double until long
 * enough, then scale). Each step takes the fastest of 3 timings without a
 * preemption (of up to 10), so that a thread descheduled by other work does
 * not stop the doubling early. */
static long calibrate_reps(const bench *b, double target_us) {
  long step = b->reps_per_thread ? nthreads : 1;
  long reps = step;
  double t;
  for (;;) {
    double clean = -1.0, any = -1.0;
    for (int k = 0, n = 0; k < 10 && n < 3; k++) {
      long p0 = preemptions();
      double one = time_test(b, reps);
      if (preemptions() == p0) {
        n++;
        clean = clean < 0 || one < clean ? one : clean;
      }
      any = any < 0 || one < any ? one : any;
    }
    t = clean >= 0 ? clean : any;
    if (t >= target_us / 4 || reps > LONG_MAX / 16)
      break;
    reps *= 2;
  }
  double want = (double)reps * target_us / (t > 0 ? t : 1e-3);
  if (want > (double)(LONG_MAX / 4))
    want = (double)(LONG_MAX / 4);
  reps = ((long)want + step - 1) / step * step;
  return reps < step ? step : reps;
}

/* EPCC's getdelaylengthfromtime: grow the loop count by 10% until delay()
 * takes delay_us (the mean of 1000 calls). */
static int calibrate_delay(double delay_us) {
  int len = 0;
  double lapsed = 0.0;
  while (lapsed < delay_us && len < INT_MAX / 2) {
    len = (int)(len * 1.1) + 1;
    double t0 = now_us();
    for (int r = 0; r < 1000; r++)
      delay(len);
    lapsed = (now_us() - t0) / 1000;
  }
  return len;
}

static double measure_delay(void) {
  double t[5];
  for (int k = 0; k < 5; k++) {
    double t0 = now_us();
    for (int r = 0; r < 1000; r++)
      delay(delaylength);
    t[k] = (now_us() - t0) / 1000;
  }
  return median(t, 5);
}

/* The round trip of a cache line between threads 0 and 1 of the team, in
 * ns (the fastest of 5 runs of up to 2000 round trips or 2 ms, each after
 * wake_team): how far apart
 * the two CPUs are (SMT siblings of one core, or two cores; a VM's vCPUs can
 * move between the two), which the contended rows (dynamic, critical,
 * barrier...) depend on. A thread without a CPU of its own shows as a round
 * trip of a scheduler time slice. 0 with 1 thread. Only atomics are used,
 * no runtime call but the parallel region. */
static double line_round_trip_ns(void) {
  if (nthreads < 2)
    return 0.0;
  double rtt[5];
  for (int k = 0; k < 5; k++) {
    int ready = 0, flag = 0;
    wake_team();
    long trips = 0;
    double t = 0.0;
#pragma omp parallel shared(ready, flag, trips, t)
    {
      int me = omp_get_thread_num();
      if (me < 2) {
        __atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < 2)
          ;
        if (me == 0) {
          double t0 = now_us();
          long n = 0;
          while (n < 2000 && now_us() - t0 < 2000.0) {
            __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
            while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != 0)
              ;
            n++;
          }
          t = now_us() - t0;
          trips = n;
          __atomic_store_n(&flag, -1, __ATOMIC_RELEASE);
        } else {
          int f;
          while ((f = __atomic_load_n(&flag, __ATOMIC_ACQUIRE)) != -1)
            if (f == 1)
              __atomic_store_n(&flag, 0, __ATOMIC_RELEASE);
        }
      }
    }
    rtt[k] = trips ? t * 1000.0 / (double)trips : 0.0;
  }
  double best = rtt[0];
  for (int k = 1; k < 5; k++)
    best = rtt[k] < best ? rtt[k] : best;
  return best;
}

typedef struct options {
  bool selected[NBENCH];
  int threads;
  int outer;
  double target_us;
  double delay_us;
} options;

static void usage(const char *prog, FILE *to) {
  fprintf(to,
          "usage: %s [--construct NAME[,NAME...]|all] [--threads P]\n"
          "          [--reps R] [--quick] [--target-us T] [--delay-us D]\n"
          "          [--list]\n"
          "  --construct  what to measure (default all; --list names them)\n"
          "  --threads    team size, set with omp_set_num_threads (default:\n"
          "               the online CPUs)\n"
          "  --reps       outer repetitions; the median is printed (default "
          "21,\n"
          "               --quick 7)\n"
          "  --quick      fewer and shorter repetitions\n"
          "  --target-us  time of one outer repetition of a test (default "
          "1000,\n"
          "               --quick 250)\n"
          "  --delay-us   the delay inside each construct (default 0.1)\n"
          "Prints one JSON object per construct, one line each, to stdout.\n",
          prog);
}

static double parse_num(const char *opt, const char *s, double lo, double hi) {
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (errno != 0 || end == s || *end != '\0' || !(v >= lo && v <= hi)) {
    fprintf(stderr, "epcc_omp: %s: '%s' is not a number in [%g, %g]\n", opt, s,
            lo, hi);
    exit(2);
  }
  return v;
}

static int parse_int(const char *opt, const char *s, int lo, int hi) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "epcc_omp: %s: '%s' is not an integer in [%d, %d]\n", opt,
            s, lo, hi);
    exit(2);
  }
  return (int)v;
}

static void select_constructs(options *o, const char *list) {
  if (strcmp(list, "all") == 0) {
    for (int b = 0; b < NBENCH; b++)
      o->selected[b] = true;
    return;
  }
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", list);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    int found = -1;
    for (int b = 0; b < NBENCH; b++)
      if (strcmp(tok, benches[b].name) == 0)
        found = b;
    if (found < 0) {
      fprintf(stderr,
              "epcc_omp: --construct: unknown '%s' (--list names "
              "them)\n",
              tok);
      exit(2);
    }
    o->selected[found] = true;
  }
}

static options parse_args(int argc, char **argv) {
  options o;
  memset(&o, 0, sizeof o);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  bool quick = false, have_outer = false, have_target = false, any = false;
  o.threads = online > 0 ? (int)online : 1;
  o.delay_us = 0.1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(argv[0], stdout);
      exit(0);
    }
    if (strcmp(a, "--list") == 0) {
      for (int b = 0; b < NBENCH; b++)
        printf("%-14s overhead per %s\n", benches[b].name, benches[b].per);
      exit(0);
    }
    if (strcmp(a, "--quick") == 0) {
      quick = true;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "epcc_omp: '%s' needs a value (or is unknown)\n", a);
      usage(argv[0], stderr);
      exit(2);
    }
    const char *v = argv[++i];
    if (strcmp(a, "--construct") == 0) {
      select_constructs(&o, v);
      any = true;
    } else if (strcmp(a, "--threads") == 0) {
      o.threads = parse_int(a, v, 1, 4096);
    } else if (strcmp(a, "--reps") == 0) {
      o.outer = parse_int(a, v, 1, MAX_OUTER);
      have_outer = true;
    } else if (strcmp(a, "--target-us") == 0) {
      o.target_us = parse_num(a, v, 1, 1e8);
      have_target = true;
    } else if (strcmp(a, "--delay-us") == 0) {
      o.delay_us = parse_num(a, v, 0.001, 1e6);
    } else {
      fprintf(stderr, "epcc_omp: unknown option '%s'\n", a);
      usage(argv[0], stderr);
      exit(2);
    }
  }
  if (!any)
    select_constructs(&o, "all");
  if (!have_outer)
    o.outer = quick ? 7 : 21;
  if (!have_target)
    o.target_us = quick ? 250 : 1000;
  return o;
}

static void run_bench(const bench *b, const options *o, double delay_real,
                      double rtt_ns) {
  const char *path = NULL;
  char err[4200];
  int nsyms = 0;
  while (nsyms < MAX_SYMS && b->syms[nsyms])
    nsyms++;
  const char *runtime = omp_identify(b->syms, nsyms, &path, err, sizeof err);
  if (!runtime)
    die("%s: %s", b->name, err);

  long guided = b->unit == UNIT_GUIDED ? guided_chunks() : 0;
  if (b->unit == UNIT_GUIDED && guided < nthreads)
    die("guided: the runtime cut %ld iterations into %ld chunks",
        (long)ITERS_PER_THREAD * nthreads, guided);
  long reps = calibrate_reps(b, o->target_us);
  double units = (double)reps * units_per_rep(b, guided);
  /* Outer repetitions: a reference timing, then a test timing. One during
   * which the process was preempted is repeated (up to 3 x --reps in all);
   * the median is over the undisturbed ones, or over all of them (and the
   * record says "noisy": true) when fewer than 3 were undisturbed. */
  double ov[3 * MAX_OUTER], tt[3 * MAX_OUTER], tr[3 * MAX_OUTER];
  double cov[3 * MAX_OUTER], ctt[3 * MAX_OUTER], ctr[3 * MAX_OUTER];
  int all = 0, clean = 0;
  time_ref(b, reps); /* warm-up (the test was warmed by the calibration) */
  while (clean < o->outer && all < 3 * o->outer) {
    long p0 = preemptions();
    tr[all] = time_ref(b, reps);
    tt[all] = time_test(b, reps);
    ov[all] = (tt[all] - tr[all]) / units;
    if (preemptions() == p0) {
      cov[clean] = ov[all];
      ctt[clean] = tt[all];
      ctr[clean++] = tr[all];
    }
    all++;
  }
  bool noisy = clean < (o->outer < 3 ? o->outer : 3);
  const double *use_ov = noisy ? ov : cov, *use_tt = noisy ? tt : ctt,
               *use_tr = noisy ? tr : ctr;
  int n = noisy ? all : clean;
  double overhead = median(use_ov, n);

  printf("{\"construct\": \"%s\", \"threads\": %d, \"overhead_us\": %.4f, "
         "\"runtime\": \"%s\", \"per\": \"%s\", \"library\": \"%s\", "
         "\"reps_overhead_us\": [",
         b->name, nthreads, overhead, runtime, b->per, path);
  for (int k = 0; k < n; k++)
    printf("%s%.4f", k ? ", " : "", use_ov[k]);
  printf("], \"disturbed_reps\": %d, \"noisy\": %s, \"test_us\": %.4f, "
         "\"ref_us\": %.4f, \"innerreps\": %ld, \"units_per_rep\": %.4g, "
         "\"delay_us\": %.4f, \"delaylength\": %d, \"target_us\": %g, "
         "\"line_rtt_ns\": %.1f",
         all - clean, noisy ? "true" : "false", median(use_tt, n) / units,
         median(use_tr, n) / units, reps, units_per_rep(b, guided), delay_real,
         delaylength, o->target_us, rtt_ns);
  if (b->unit == UNIT_GUIDED)
    printf(", \"chunks_per_loop\": %ld, \"per_loop_us\": %.4f", guided,
           overhead * units_per_rep(b, guided));
  printf("}\n");
  fflush(stdout);
}

int main(int argc, char **argv) {
  options o = parse_args(argc, argv);
  nthreads = o.threads;
  omp_set_num_threads(nthreads);

  /* Start the team (untimed) and check its size. */
  int team = 0;
#pragma omp parallel
  {
#pragma omp master
    team = omp_get_num_threads();
  }
  if (team != nthreads)
    die("the runtime gave a team of %d threads, %d asked", team, nthreads);

  delaylength = calibrate_delay(o.delay_us);
  double delay_real = measure_delay();
  double rtt_ns = line_round_trip_ns();

  for (int b = 0; b < NBENCH; b++)
    if (o.selected[b])
      run_bench(&benches[b], &o, delay_real, rtt_ns);
  return 0;
}
