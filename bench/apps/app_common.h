/* What the application benchmarks (bench/apps/<name>.c) share: the command
 * line, the clock, the result checks and the one result line.
 *
 * Every app is one C11 file built by gcc -fopenmp and linked to libgomp only,
 * so that one binary runs under libgomp, LLVM libomp (LD_PRELOAD) and weft
 * (`weft run`). Each computes its result twice in one process: serially, and
 * with tasks inside `#pragma omp parallel` + `#pragma omp single`, compares
 * the two and exits with status 1 and a message naming the first differing
 * element when they differ. Only the parallel part is timed (omp_get_wtime).
 * On success it prints one line on stdout:
 *
 *   app=NAME <param>=<value>... threads=P tasks=T runtime=R time_s=S
 *   serial_s=S check=ok
 *
 * where runtime is the library that really serves the OpenMP calls
 * (omp_identify.h), never what the environment claims.
 */
#ifndef WEFT_BENCH_APP_COMMON_H
#define WEFT_BENCH_APP_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "../omp_identify.h"

#include <errno.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Marks a variable that only depend clauses name as used: gcc 12 warns that
 * such a variable is unused (-Wunused-variable). */
#define APP_DEP_ONLY(x) ((void)(x))

/* One command-line option: `--name N` (an integer in [min, max]) or, when
 * choices is set, `--name WORD` (value = the index of WORD in choices, a
 * NULL-terminated list). */
typedef struct app_opt {
  const char *name;
  long value; /* the default, replaced by the parsed value */
  long min, max;
  const char *help;
  const char *const *choices;
} app_opt;

typedef struct app_ctx {
  const char *name;
  app_opt *opts;
  int nopts;
  int threads;
  long tasks;
  double time_s, serial_s;
} app_ctx;

static inline void app_die(const app_ctx *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "app_%s: ", a->name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static inline void app_usage(const app_ctx *a, FILE *f) {
  fprintf(f, "usage: app_%s [options]\n", a->name);
  for (int i = 0; i < a->nopts; i++) {
    const app_opt *o = &a->opts[i];
    if (o->choices) {
      fprintf(f, "  --%-10s ", o->name);
      for (int c = 0; o->choices[c]; c++)
        fprintf(f, "%s%s", c ? "|" : "", o->choices[c]);
      fprintf(f, "  %s (default %s)\n", o->help, o->choices[o->value]);
    } else {
      fprintf(f, "  --%-10s N  %s (default %ld, %ld..%ld)\n", o->name, o->help,
              o->value, o->min, o->max);
    }
  }
  fprintf(f,
          "  --%-10s P  threads of the parallel region (default: "
          "omp_get_max_threads())\n",
          "threads");
}

static inline long app_parse_long(const app_ctx *a, const char *opt,
                                  const char *s, long min, long max) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max) {
    fprintf(stderr, "app_%s: --%s: expected an integer in %ld..%ld, got '%s'\n",
            a->name, opt, min, max, s);
    exit(2);
  }
  return v;
}

/* Parses argv into a->opts and a->threads; exits on --help (status 0) and
 * on bad input (status 2, naming the option and the value). */
static inline void app_parse(app_ctx *a, int argc, char **argv) {
  a->threads = omp_get_max_threads();
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      app_usage(a, stdout);
      exit(0);
    }
    if (strncmp(arg, "--", 2) != 0) {
      fprintf(stderr, "app_%s: unexpected argument '%s'\n", a->name, arg);
      app_usage(a, stderr);
      exit(2);
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "app_%s: %s needs a value\n", a->name, arg);
      exit(2);
    }
    const char *val = argv[++i];
    if (!strcmp(arg + 2, "threads")) {
      a->threads = (int)app_parse_long(a, "threads", val, 1, 4096);
      continue;
    }
    app_opt *o = NULL;
    for (int k = 0; k < a->nopts; k++)
      if (!strcmp(arg + 2, a->opts[k].name))
        o = &a->opts[k];
    if (!o) {
      fprintf(stderr, "app_%s: unknown option '%s'\n", a->name, arg);
      app_usage(a, stderr);
      exit(2);
    }
    if (o->choices) {
      long c = 0;
      while (o->choices[c] && strcmp(o->choices[c], val))
        c++;
      if (!o->choices[c]) {
        fprintf(stderr, "app_%s: --%s: unknown value '%s'\n", a->name, o->name,
                val);
        exit(2);
      }
      o->value = c;
    } else {
      o->value = app_parse_long(a, o->name, val, o->min, o->max);
    }
  }
}

static inline void *app_alloc(const app_ctx *a, size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 1))
    app_die(a, "out of memory allocating %zu bytes", bytes);
  memset(p, 0, bytes);
  return p;
}

/* Starts the team once before anything is timed, so that no runtime's
 * thread creation is counted in time_s. */
static inline void app_warm_up(const app_ctx *a) {
  int seen = 0;
#pragma omp parallel num_threads(a->threads)
  {
#pragma omp single
    seen = omp_get_num_threads();
  }
  if (seen < 1)
    app_die(a, "warm-up parallel region ran with %d threads", seen);
}

/* Exits (status 1) unless got[0..n) equals want[0..n) bitwise: the tasks run
 * the serial code's kernels in an order their dependences fix, so floating
 * point results are identical, not just close. */
static inline void app_check_doubles(const app_ctx *a, const char *what,
                                     const double *got, const double *want,
                                     size_t n) {
  for (size_t i = 0; i < n; i++)
    if (memcmp(&got[i], &want[i], sizeof got[i]) != 0)
      app_die(a,
              "check FAILED: %s[%zu] = %.17g with tasks, %.17g serially "
              "(%zu elements)",
              what, i, got[i], want[i], n);
}

static inline void app_check_floats(const app_ctx *a, const char *what,
                                    const float *got, const float *want,
                                    size_t n) {
  for (size_t i = 0; i < n; i++)
    if (memcmp(&got[i], &want[i], sizeof got[i]) != 0)
      app_die(a,
              "check FAILED: %s[%zu] = %.9g with tasks, %.9g serially "
              "(%zu elements)",
              what, i, (double)got[i], (double)want[i], n);
}

/* The same for integers of any width (elem bytes each). */
static inline void app_check_ints(const app_ctx *a, const char *what,
                                  const void *got, const void *want, size_t n,
                                  size_t elem) {
  const unsigned char *g = (const unsigned char *)got;
  const unsigned char *w = (const unsigned char *)want;
  for (size_t i = 0; i < n; i++) {
    if (memcmp(g + i * elem, w + i * elem, elem) == 0)
      continue;
    int64_t gv = 0, wv = 0;
    if (elem == 1) {
      gv = g[i];
      wv = w[i];
    } else if (elem == 4) {
      gv = ((const int32_t *)got)[i];
      wv = ((const int32_t *)want)[i];
    } else if (elem == 8) {
      gv = ((const int64_t *)got)[i];
      wv = ((const int64_t *)want)[i];
    }
    app_die(a,
            "check FAILED: %s[%zu] = %lld with tasks, %lld serially (%zu "
            "elements)",
            what, i, (long long)gv, (long long)wv, n);
  }
}

/* The runtime serving every OpenMP entry point the app calls: the common
 * ones plus extra[0..nextra) ("name@VERSION", as nm -D shows them). */
static inline const char *app_runtime(const app_ctx *a,
                                      const char *const *extra, int nextra) {
  const char *syms[16] = {"GOMP_parallel@GOMP_4.0",
                          "GOMP_single_start@GOMP_1.0", "GOMP_task@GOMP_2.0",
                          "omp_get_wtime@OMP_2.0",
                          "omp_get_num_threads@OMP_1.0"};
  int n = 5;
  for (int i = 0; i < nextra && n < 16; i++)
    syms[n++] = extra[i];
  const char *path = NULL;
  char err[4200];
  const char *name = omp_identify(syms, n, &path, err, sizeof err);
  if (!name)
    app_die(a, "%s", err);
  return name;
}

/* The result line (see the top of this file); call it after the checks. */
static inline void app_report(const app_ctx *a, const char *runtime) {
  printf("app=%s", a->name);
  for (int i = 0; i < a->nopts; i++) {
    const app_opt *o = &a->opts[i];
    if (o->choices)
      printf(" %s=%s", o->name, o->choices[o->value]);
    else
      printf(" %s=%ld", o->name, o->value);
  }
  printf(" threads=%d tasks=%ld runtime=%s time_s=%.6f serial_s=%.6f "
         "check=ok\n",
         a->threads, a->tasks, runtime, a->time_s, a->serial_s);
}

/* Per-task timing, for measurement only (bench/apps/task_times.py): with
 * APP_TASK_TIMES=FILE set, app_task_times_open(a, n) allocates room for n
 * tasks, each task brackets its kernel with app_task_begin() and
 * app_task_end(i, t) (i: the task's creation rank, unique), and
 * app_task_times_write(a, t0, t1) writes "region t0 t1" and one line "i
 * thread start end" per task (omp_get_wtime seconds). Unset (the default),
 * each call is a load and a predicted branch and nothing is written. */
typedef struct app_task_time {
  int thread;
  double start, end;
} app_task_time;
static app_task_time *app_tt;
static long app_tt_n;

static inline void app_task_times_open(const app_ctx *a, long n) {
  if (!getenv("APP_TASK_TIMES"))
    return;
  app_tt = (app_task_time *)app_alloc(a, sizeof(app_task_time) * (size_t)n);
  app_tt_n = n;
}

static inline double app_task_begin(void) {
  return app_tt ? omp_get_wtime() : 0.0;
}

static inline void app_task_end(long i, double start) {
  if (!app_tt)
    return;
  if (i < 0 || i >= app_tt_n) {
    fprintf(stderr, "app_task_end: task rank %ld outside [0, %ld)\n", i,
            app_tt_n);
    abort();
  }
  app_tt[i] = (app_task_time){omp_get_thread_num(), start, omp_get_wtime()};
}

static inline void app_task_times_write(const app_ctx *a, double t0,
                                        double t1) {
  if (!app_tt)
    return;
  const char *path = getenv("APP_TASK_TIMES");
  FILE *f = fopen(path, "w");
  if (!f)
    app_die(a, "APP_TASK_TIMES=%s: cannot create: %s", path, strerror(errno));
  fprintf(f, "region %.9f %.9f\n", t0, t1);
  for (long i = 0; i < app_tt_n; i++)
    fprintf(f, "%ld %d %.9f %.9f\n", i, app_tt[i].thread, app_tt[i].start,
            app_tt[i].end);
  fclose(f);
}

/* A deterministic pseudo-random stream (splitmix64) for the inputs. */
static inline uint64_t app_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double app_rand_unit(uint64_t *state) {
  return (double)(app_rand(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif /* WEFT_BENCH_APP_COMMON_H */
