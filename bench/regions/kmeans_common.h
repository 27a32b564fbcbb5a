/* k-means clustering of 3D points, shared by kmeans_regions.c and
 * kmeans_mpi.c (the Myrmics paper's benchmark, section VI-B, after
 * Myrmics' bench/kmeans_*.c). The points are cut into regions x tiles tiles
 * of points / (regions x tiles) points each. The first `clusters` points are
 * the starting centres. Each iteration assigns every point to its nearest
 * centre (the lowest index on a tie), sums each tile's points per cluster,
 * reduces the sums over all tiles and moves each centre to the mean of its
 * points (a centre with no point stays).
 *
 * Coordinates are multiples of 1/8 in [0, 1000): the sums are exact, so
 * every program computes the same centres bit for bit whatever the order of
 * its reduction. */
#ifndef WEFT_BENCH_KMEANS_COMMON_H
#define WEFT_BENCH_KMEANS_COMMON_H

#include "twins_common.h"

#define KMEANS_DIM 3

typedef struct kmeans_opts {
  long points;   /* points in all */
  long clusters; /* k */
  long regions;  /* regions of points */
  long tiles;    /* tiles per region */
  long iters;    /* iterations */
  long verify;   /* 1: compare with the serial clustering */
  long s;        /* points per tile */
} kmeans_opts;

static inline kmeans_opts kmeans_parse(const char *prog, int argc,
                                       char **argv) {
  kmeans_opts o = {1L << 20, 16, 4, 8, 10, 0, 0};
  twin_opt opts[] = {{"--points", &o.points},   {"--clusters", &o.clusters},
                     {"--regions", &o.regions}, {"--tiles", &o.tiles},
                     {"--iters", &o.iters},     {"--verify", &o.verify}};
  twin_parse(prog, argc, argv, opts, 6);
  twin_require(o.points % (o.regions * o.tiles) == 0, prog, "--points",
               o.points, "is not a multiple of regions x tiles");
  o.s = o.points / (o.regions * o.tiles);
  twin_require(o.clusters <= o.points, prog, "--clusters", o.clusters,
               "is more than --points");
  return o;
}

/* Coordinate c of point i. */
static inline double kmeans_coord(long i, int c) {
  return (double)(twin_hash((uint64_t)i * KMEANS_DIM + (uint64_t)c) % 8000) /
         8.0;
}

/* Fills count points starting at global point first (count x 3). */
static inline void kmeans_fill(double *p, long first, long count) {
  for (long i = 0; i < count; ++i)
    for (int c = 0; c < KMEANS_DIM; ++c)
      p[i * KMEANS_DIM + c] = kmeans_coord(first + i, c);
}

static inline void kmeans_start_centres(double *centres, long k) {
  kmeans_fill(centres, 0, k);
}

/* Assigns the s points of a tile: membership, and per cluster the sum of
 * its points' coordinates (k x 3) and their number (k). */
TWIN_KERNEL void kmeans_tile(const double *pts, long s, const double *ctr,
                             long k, int *member, double *sum, long *cnt) {
  memset(sum, 0, sizeof(double) * (size_t)(k * KMEANS_DIM));
  memset(cnt, 0, sizeof(long) * (size_t)k);
  for (long i = 0; i < s; ++i) {
    const double *p = pts + i * KMEANS_DIM;
    long best = 0;
    double best_d = 0;
    for (long j = 0; j < k; ++j) {
      double d = 0;
      for (int c = 0; c < KMEANS_DIM; ++c) {
        double x = p[c] - ctr[j * KMEANS_DIM + c];
        d += x * x;
      }
      if (j == 0 || d < best_d) {
        best_d = d;
        best = j;
      }
    }
    member[i] = (int)best;
    cnt[best] += 1;
    for (int c = 0; c < KMEANS_DIM; ++c)
      sum[best * KMEANS_DIM + c] += p[c];
  }
}

/* sum += add, cnt += addc (k clusters). */
static inline void kmeans_add(double *sum, long *cnt, const double *add,
                              const long *addc, long k) {
  for (long j = 0; j < k; ++j) {
    cnt[j] += addc[j];
    for (int c = 0; c < KMEANS_DIM; ++c)
      sum[j * KMEANS_DIM + c] += add[j * KMEANS_DIM + c];
  }
}

/* The new centres from the reduced sums. */
static inline void kmeans_centres(double *ctr, const double *sum,
                                  const long *cnt, long k) {
  for (long j = 0; j < k; ++j)
    if (cnt[j])
      for (int c = 0; c < KMEANS_DIM; ++c)
        ctr[j * KMEANS_DIM + c] = sum[j * KMEANS_DIM + c] / (double)cnt[j];
}

/* A checksum of the centres (computed in one order by every program). */
static inline double kmeans_checksum(const double *ctr, long k) {
  double s = 0;
  for (long j = 0; j < k * KMEANS_DIM; ++j)
    s += ctr[j] * (double)(1 + j % 13);
  return s;
}

/* The serial clustering: the final centres (returned, k x 3) and every
 * point's cluster (*member_out, points). */
static inline double *kmeans_serial(const char *prog, const kmeans_opts *o,
                                    int **member_out) {
  long n = o->points, k = o->clusters;
  double *pts = twin_malloc(prog, sizeof(double) * (size_t)(n * KMEANS_DIM));
  double *ctr = twin_malloc(prog, sizeof(double) * (size_t)(k * KMEANS_DIM));
  double *sum = twin_malloc(prog, sizeof(double) * (size_t)(k * KMEANS_DIM));
  long *cnt = twin_malloc(prog, sizeof(long) * (size_t)k);
  int *member = twin_malloc(prog, sizeof(int) * (size_t)n);
  kmeans_fill(pts, 0, n);
  kmeans_start_centres(ctr, k);
  for (long it = 0; it < o->iters; ++it) {
    kmeans_tile(pts, n, ctr, k, member, sum, cnt);
    kmeans_centres(ctr, sum, cnt, k);
  }
  free(pts);
  free(sum);
  free(cnt);
  *member_out = member;
  return ctr;
}

/* 0 when the centres equal the serial ones, else 1 with a message. */
static inline int kmeans_check_centres(const char *prog, const double *ctr,
                                       const double *serial, long k) {
  for (long j = 0; j < k * KMEANS_DIM; ++j)
    if (ctr[j] != serial[j]) {
      fprintf(stderr,
              "%s: centre %ld coordinate %ld is %.17g, serially "
              "%.17g\n",
              prog, j / KMEANS_DIM, j % KMEANS_DIM, ctr[j], serial[j]);
      return 1;
    }
  return 0;
}

/* 0 when the s memberships from global point first equal the serial ones,
 * else 1 with a message. */
static inline int kmeans_check_members(const char *prog, const int *member,
                                       const int *serial, long first, long s) {
  for (long i = 0; i < s; ++i)
    if (member[i] != serial[first + i]) {
      fprintf(stderr, "%s: point %ld is in cluster %d, serially %d\n", prog,
              first + i, member[i], serial[first + i]);
      return 1;
    }
  return 0;
}

#endif
