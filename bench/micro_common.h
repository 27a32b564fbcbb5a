/* The parts of the task-overhead microbenchmarks that do not depend on the
 * runtime under test: the command line, the clock, the median and the JSON
 * line. Included by micro_omp.c (C11, gcc -fopenmp) and micro_weft.cpp
 * (C++20), so that both binaries accept exactly the same options and print
 * exactly the same record. The workloads themselves are defined at the top of
 * micro_omp.c and micro_weft.cpp and in docs/benchmarks.md.
 */
#ifndef WEFT_BENCH_MICRO_COMMON_H
#define WEFT_BENCH_MICRO_COMMON_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MICRO_MAX_DEPS 15
#define MICRO_CHAIN_LEN 1000 /* emptytask: tasks per chain (Nexus++ paper) */

typedef enum micro_pattern {
  MICRO_TASK_FREE = 0,
  MICRO_TASK_CHAIN = 1,
  MICRO_EMPTYTASK = 2
} micro_pattern;

static const char *const micro_pattern_names[] = {"task-free", "task-chain",
                                                  "emptytask"};

typedef struct micro_options {
  micro_pattern pattern;
  int deps;
  long tasks;
  int reps;
  int threads;
} micro_options;

static void micro_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("micro: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fflush(stdout);
  abort();
}

static void micro_usage(const char *prog, FILE *to) {
  fprintf(to,
          "usage: %s --pattern task-free|task-chain|emptytask [--deps N]\n"
          "          [--tasks T] [--reps R] [--threads P]\n"
          "  --pattern  the workload (see docs/benchmarks.md)\n"
          "  --deps     inout dependences per task, 0..%d (default 1;\n"
          "             emptytask always has exactly 1)\n"
          "  --tasks    tasks per repetition (default 200000; emptytask\n"
          "             rounds down to a multiple of %d)\n"
          "  --reps     timed repetitions, after one untimed warm-up "
          "(default 5)\n"
          "  --threads  worker threads, the creating thread included\n"
          "             (default: the online CPUs)\n"
          "Prints one JSON object on one line to stdout.\n",
          prog, MICRO_MAX_DEPS, MICRO_CHAIN_LEN);
}

static long micro_parse_long(const char *opt, const char *s, long lo, long hi) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "micro: %s: '%s' is not an integer in [%ld, %ld]\n", opt, s,
            lo, hi);
    exit(2);
  }
  return v;
}

static micro_options micro_parse_args(int argc, char **argv) {
  micro_options o;
  int have_pattern = 0, have_deps = 0;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  o.pattern = MICRO_TASK_FREE;
  o.deps = 1;
  o.tasks = 200000;
  o.reps = 5;
  o.threads = online > 0 ? (int)online : 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      micro_usage(argv[0], stdout);
      exit(0);
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "micro: '%s' needs a value (or is unknown)\n", a);
      micro_usage(argv[0], stderr);
      exit(2);
    }
    const char *v = argv[++i];
    if (strcmp(a, "--pattern") == 0) {
      int found = 0;
      for (int p = 0; p < 3; p++) {
        if (strcmp(v, micro_pattern_names[p]) == 0) {
          o.pattern = (micro_pattern)p;
          found = 1;
        }
      }
      if (!found) {
        fprintf(stderr,
                "micro: --pattern: '%s' is not task-free, task-chain or "
                "emptytask\n",
                v);
        exit(2);
      }
      have_pattern = 1;
    } else if (strcmp(a, "--deps") == 0) {
      o.deps = (int)micro_parse_long(a, v, 0, MICRO_MAX_DEPS);
      have_deps = 1;
    } else if (strcmp(a, "--tasks") == 0) {
      o.tasks = micro_parse_long(a, v, 1, 1000000000L);
    } else if (strcmp(a, "--reps") == 0) {
      o.reps = (int)micro_parse_long(a, v, 1, 1000);
    } else if (strcmp(a, "--threads") == 0) {
      o.threads = (int)micro_parse_long(a, v, 1, 4096);
    } else {
      fprintf(stderr, "micro: unknown option '%s'\n", a);
      micro_usage(argv[0], stderr);
      exit(2);
    }
  }
  if (!have_pattern) {
    fprintf(stderr, "micro: --pattern is required\n");
    micro_usage(argv[0], stderr);
    exit(2);
  }
  if (o.pattern == MICRO_EMPTYTASK) {
    if (have_deps && o.deps != 1) {
      fprintf(stderr,
              "micro: --deps %d: emptytask has exactly 1 dependence (inout "
              "on the counter)\n",
              o.deps);
      exit(2);
    }
    o.deps = 1;
    if (o.tasks < MICRO_CHAIN_LEN) {
      fprintf(stderr, "micro: --tasks %ld: emptytask needs at least %d\n",
              o.tasks, MICRO_CHAIN_LEN);
      exit(2);
    }
    o.tasks -= o.tasks % MICRO_CHAIN_LEN;
  }
  return o;
}

static long long micro_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int micro_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double micro_median(const double *v, int n) {
  double *s = (double *)malloc(sizeof(double) * (size_t)n);
  if (!s)
    micro_die("out of memory");
  memcpy(s, v, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof(double), micro_cmp_double);
  double m = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
  return m;
}

static void *micro_alloc(size_t bytes) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p)
    micro_die("out of memory (%zu bytes)", bytes);
  return p;
}

/* One JSON object on one line. extra: more "key": value pairs (already JSON,
 * without a leading comma) or "" for none. */
static void micro_print_json(const char *runtime, const micro_options *o,
                             const double *ns_per_task, const char *extra) {
  printf("{\"runtime\": \"%s\", \"pattern\": \"%s\", \"deps\": %d, "
         "\"threads\": %d, \"tasks\": %ld, \"reps_ns_per_task\": [",
         runtime, micro_pattern_names[o->pattern], o->deps, o->threads,
         o->tasks);
  for (int r = 0; r < o->reps; r++)
    printf("%s%.2f", r ? ", " : "", ns_per_task[r]);
  printf("], \"ns_per_task\": %.2f%s%s}\n", micro_median(ns_per_task, o->reps),
         extra[0] ? ", " : "", extra);
  fflush(stdout);
}

/* The checks every runtime's result must pass, after each repetition.
 * done[0] is a sentinel (0); task i writes done[i + 1].
 *   task-free, and task-chain with 0 deps (no ordering): done[i+1] == 1;
 *   task-chain with deps: task i stores done[i] + 1 into done[i+1], so
 *     done[i+1] == i + 1 only if every task ran once, after its predecessor;
 *   emptytask: the shared counter equals the number of tasks. */
static void micro_check(const micro_options *o, const int *done, long counter,
                        const char *runtime, int rep) {
  if (o->pattern == MICRO_EMPTYTASK) {
    if (counter != o->tasks)
      micro_die("%s emptytask rep %d: counter is %ld, expected %ld", runtime,
                rep, counter, o->tasks);
    return;
  }
  int ordered = o->pattern == MICRO_TASK_CHAIN && o->deps > 0;
  for (long i = 0; i < o->tasks; i++) {
    long want = ordered ? i + 1 : 1;
    if (done[i + 1] != want)
      micro_die("%s %s deps %d rep %d: task %ld left %d, expected %ld "
                "(a task ran twice, never, or before its predecessor)",
                runtime, micro_pattern_names[o->pattern], o->deps, rep, i,
                done[i + 1], want);
  }
}

#endif /* WEFT_BENCH_MICRO_COMMON_H */
