/* The Jacobi iteration shared by jacobi_regions.c and jacobi_mpi.c (the
 * Myrmics paper's benchmark, section VI-B): an N x N interior grid with a
 * fixed border (the top edge at 1, the rest at 0); each sweep replaces every
 * element by the average of its four neighbours, from one buffer into the
 * other. Rows are split into blocks of consecutive rows; each row holds
 * N + 2 values (the left and right border columns at 0). */
#ifndef WEFT_BENCH_JACOBI_COMMON_H
#define WEFT_BENCH_JACOBI_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct jacobi_opts {
  long n;      /* interior side */
  long iters;  /* sweeps */
  long blocks; /* row blocks (tasks per sweep; the MPI version: its ranks) */
} jacobi_opts;

/* Takes "--verify V" out of argv (for jacobi_parse) and returns V (0 when
 * absent). */
static inline long jacobi_take_verify(int *argc, char **argv) {
  for (int i = 1; i + 1 < *argc; ++i)
    if (!strcmp(argv[i], "--verify")) {
      long v = atol(argv[i + 1]);
      for (int j = i; j + 2 <= *argc; ++j)
        argv[j] = argv[j + 2];
      *argc -= 2;
      return v;
    }
  return 0;
}

/* Parses --n N --iters I --blocks B; exits with a message naming a bad
 * value. */
static inline jacobi_opts jacobi_parse(int argc, char **argv, long blocks) {
  jacobi_opts o = {1024, 50, blocks};
  for (int i = 1; i < argc; ++i) {
    long *dst = !strcmp(argv[i], "--n")        ? &o.n
                : !strcmp(argv[i], "--iters")  ? &o.iters
                : !strcmp(argv[i], "--blocks") ? &o.blocks
                                               : NULL;
    char *end = NULL;
    if (!dst || i + 1 >= argc) {
      fprintf(stderr, "%s: unknown or incomplete option '%s'\n", argv[0],
              argv[i]);
      exit(2);
    }
    *dst = strtol(argv[++i], &end, 10);
    if (*end || *dst < 1) {
      fprintf(stderr, "%s: %s %s is not a positive integer\n", argv[0],
              argv[i - 1], argv[i]);
      exit(2);
    }
  }
  if (o.n % o.blocks) {
    fprintf(stderr, "%s: --n %ld is not a multiple of %ld blocks\n", argv[0],
            o.n, o.blocks);
    exit(2);
  }
  return o;
}

/* One sweep of `rows` rows: dst[i] from src[i - 1], src[i], src[i + 1],
 * where src[-1] is `north` and src[rows] is `south` (rows of n + 2). */
/* Out of line and 64-byte aligned, so that both versions run the same
 * machine code, laid out the same way across cache lines (see
 * twins_common.h). */
__attribute__((noinline, aligned(64))) static void
jacobi_rows(double *dst, const double *src, const double *north,
            const double *south, long rows, long n) {
  long w = n + 2;
  for (long i = 0; i < rows; ++i) {
    const double *up = i == 0 ? north : src + (i - 1) * w;
    const double *down = i == rows - 1 ? south : src + (i + 1) * w;
    const double *row = src + i * w;
    double *out = dst + i * w;
    for (long j = 1; j <= n; ++j)
      out[j] = 0.25 * (up[j] + down[j] + row[j - 1] + row[j + 1]);
  }
}

/* Sum of the interior of `rows` rows, weighted by position so that a
 * misplaced row changes it. */
static inline double jacobi_checksum(const double *rows_, long rows, long n,
                                     long first_row) {
  double s = 0;
  for (long i = 0; i < rows; ++i)
    for (long j = 1; j <= n; ++j)
      s +=
          rows_[i * (n + 2) + j] * (double)(1 + ((first_row + i) * 7 + j) % 13);
  return s;
}

/* The serial sweeps on one contiguous (n + 2) x (n + 2) grid with its
 * border rows; returns the final grid (caller frees). */
static inline double *jacobi_serial(long n, long iters) {
  size_t cells = (size_t)(n + 2) * (size_t)(n + 2);
  double *g[2] = {calloc(cells, sizeof(double)), calloc(cells, sizeof(double))};
  if (!g[0] || !g[1]) {
    fprintf(stderr, "jacobi: out of memory for the serial grid\n");
    exit(1);
  }
  for (int k = 0; k < 2; ++k)
    for (long j = 0; j < n + 2; ++j)
      g[k][j] = 1.0;
  for (long it = 0; it < iters; ++it) {
    double *s = g[it % 2], *d = g[(it + 1) % 2];
    jacobi_rows(d + (n + 2), s + (n + 2), s, s + (n + 1) * (n + 2), n, n);
  }
  free(g[(iters + 1) % 2]);
  return g[iters % 2];
}

static inline double jacobi_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
