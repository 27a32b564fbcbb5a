/* Dense matrix multiplication C = A x B, shared by matmul_regions.c and
 * matmul_mpi.c (the Myrmics paper's benchmark, section VI-B, after
 * Myrmics' bench/matrix_mult_*.c). The n x n matrices are cut into
 * nb x nb square tiles (nb = regions x tiles), each tile b x b doubles,
 * row-major and contiguous; the tiles are grouped into regions x regions
 * 2D pieces of tiles x tiles tiles each. In phase p (0 <= p < nb), tile
 * C(i, j) += A(i, p) x B(p, j): every program adds the same products to
 * each tile in the same order.
 *
 * A and B hold multiples of 1/8 in [-1, 1]: every product and sum is exact,
 * so the result and its checksum are the same bit for bit whatever the
 * order of the additions. */
#ifndef WEFT_BENCH_MATMUL_COMMON_H
#define WEFT_BENCH_MATMUL_COMMON_H

#include "twins_common.h"

typedef struct matmul_opts {
  long n;       /* matrix side */
  long regions; /* regions per side */
  long tiles;   /* tiles per region side */
  long verify;  /* 1: compare with the serial product */
  long nb, b;   /* tiles per side (regions x tiles), tile side */
} matmul_opts;

static inline matmul_opts matmul_parse(const char *prog, int argc,
                                       char **argv) {
  matmul_opts o = {768, 2, 4, 0, 0, 0};
  twin_opt opts[] = {{"--n", &o.n},
                     {"--regions", &o.regions},
                     {"--tiles", &o.tiles},
                     {"--verify", &o.verify}};
  twin_parse(prog, argc, argv, opts, 4);
  o.nb = o.regions * o.tiles;
  twin_require(o.n % o.nb == 0, prog, "--n", o.n,
               "is not a multiple of regions x tiles");
  o.b = o.n / o.nb;
  return o;
}

/* Element (i, j) of A (which 0) or B (which 1): a multiple of 1/8 in
 * [-1, 1]. */
static inline double matmul_elem(int which, long n, long i, long j) {
  uint64_t h = twin_hash((uint64_t)which * (uint64_t)n * (uint64_t)n +
                         (uint64_t)i * (uint64_t)n + (uint64_t)j);
  return (double)((int)(h % 17) - 8) / 8.0;
}

/* Fills tile (ti, tj) of A or B (b x b). */
static inline void matmul_fill_tile(double *t, int which, long n, long b,
                                    long ti, long tj) {
  for (long i = 0; i < b; ++i)
    for (long j = 0; j < b; ++j)
      t[i * b + j] = matmul_elem(which, n, ti * b + i, tj * b + j);
}

/* c += a x b for b x b tiles. */
TWIN_KERNEL void matmul_tile(double *restrict c, const double *restrict a,
                             const double *restrict bt, long b) {
  for (long i = 0; i < b; ++i)
    for (long k = 0; k < b; ++k) {
      double aik = a[i * b + k];
      const double *brow = bt + k * b;
      double *crow = c + i * b;
      for (long j = 0; j < b; ++j)
        crow[j] += aik * brow[j];
    }
}

/* The checksum of tile (ti, tj) of C, each element weighted by its place
 * (exact: see above). */
static inline double matmul_tile_checksum(const double *t, long b, long ti,
                                          long tj) {
  double s = 0;
  for (long i = 0; i < b; ++i)
    for (long j = 0; j < b; ++j)
      s += t[i * b + j] * (double)(1 + ((ti * b + i) * 7 + tj * b + j) % 13);
  return s;
}

/* The serial product (row-major n x n, plain loops); returns it. */
static inline double *matmul_serial(const char *prog, long n) {
  double *a = twin_malloc(prog, sizeof(double) * (size_t)(n * n));
  double *bm = twin_malloc(prog, sizeof(double) * (size_t)(n * n));
  double *c = calloc((size_t)(n * n), sizeof(double));
  if (!c) {
    fprintf(stderr, "%s: out of memory\n", prog);
    exit(1);
  }
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      a[i * n + j] = matmul_elem(0, n, i, j);
      bm[i * n + j] = matmul_elem(1, n, i, j);
    }
  for (long i = 0; i < n; ++i)
    for (long k = 0; k < n; ++k)
      for (long j = 0; j < n; ++j)
        c[i * n + j] += a[i * n + k] * bm[k * n + j];
  free(a);
  free(bm);
  return c;
}

/* 0 when tile (ti, tj) equals the serial product's, else 1 (with a message
 * naming the first differing element). */
static inline int matmul_check_tile(const char *prog, const double *t,
                                    const double *serial, long n, long b,
                                    long ti, long tj) {
  for (long i = 0; i < b; ++i)
    for (long j = 0; j < b; ++j) {
      long gi = ti * b + i, gj = tj * b + j;
      if (t[i * b + j] != serial[gi * n + gj]) {
        fprintf(stderr, "%s: C[%ld][%ld] = %.17g, the serial product %.17g\n",
                prog, gi, gj, t[i * b + j], serial[gi * n + gj]);
        return 1;
      }
    }
  return 0;
}

#endif
