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
static inline void jacobi_rows(double *dst, const double *src,
                               const double *north, const double *south,
                               long rows, long n) {
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

static inline double jacobi_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
