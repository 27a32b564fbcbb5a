/* Bitonic sort over tiles, shared by bitonic_regions.c and bitonic_mpi.c
 * (the Myrmics paper's benchmark, section VI-B, after Myrmics'
 * bench/bitonic_*.c). n 31-bit keys are cut into `tiles` tiles of n / tiles
 * keys (both powers of two). Each tile is first sorted on its own; then, for
 * each stage (mask, mask2) of the bitonic network over the tiles, tile t
 * and its partner t ^ mask2 are merged from one buffer into the other: t
 * keeps the lower half of their union (merge_low) when (t & mask) == 0
 * equals t < partner, else the upper half (merge_high). Both programs run
 * exactly these merges; the result is the sorted input, whose checksum is
 * an integer. */
#ifndef WEFT_BENCH_BITONIC_COMMON_H
#define WEFT_BENCH_BITONIC_COMMON_H

#include "twins_common.h"

typedef struct bitonic_opts {
  long n;       /* keys */
  long regions; /* regions per buffer (region version) */
  long tiles;   /* tiles */
  long verify;  /* 1: compare with the serially sorted input */
  long s;       /* keys per tile */
} bitonic_opts;

static inline bitonic_opts bitonic_parse(const char *prog, int argc,
                                         char **argv) {
  bitonic_opts o = {1L << 22, 4, 64, 0, 0};
  twin_opt opts[] = {{"--n", &o.n},
                     {"--regions", &o.regions},
                     {"--tiles", &o.tiles},
                     {"--verify", &o.verify}};
  twin_parse(prog, argc, argv, opts, 4);
  twin_require(twin_pow2(o.n), prog, "--n", o.n, "is not a power of two");
  twin_require(twin_pow2(o.tiles) && o.tiles <= o.n, prog, "--tiles", o.tiles,
               "is not a power of two up to --n");
  twin_require(twin_pow2(o.regions) && o.regions <= o.tiles, prog, "--regions",
               o.regions, "is not a power of two up to --tiles");
  o.s = o.n / o.tiles;
  return o;
}

typedef int32_t bitonic_key;

static inline bitonic_key bitonic_input(long i) {
  return (bitonic_key)(twin_hash((uint64_t)i) >> 33);
}

static int bitonic_cmp(const void *a, const void *b) {
  bitonic_key x = *(const bitonic_key *)a, y = *(const bitonic_key *)b;
  return (x > y) - (x < y);
}

TWIN_KERNEL void bitonic_tile_sort(bitonic_key *t, long s) {
  qsort(t, (size_t)s, sizeof *t, bitonic_cmp);
}

/* Whether tile t keeps the lower half at stage (mask, mask2). */
static inline int bitonic_keeps_low(long t, long mask, long mask2) {
  return ((t & mask) == 0) == (t < (t ^ mask2));
}

/* dst = the lower (low != 0) or upper half of the union of the sorted
 * tiles a and b (s keys each), sorted. */
TWIN_KERNEL void bitonic_merge(bitonic_key *restrict dst, const bitonic_key *a,
                               const bitonic_key *b, long s, int low) {
  if (low) {
    long j = 0, k = 0;
    for (long i = 0; i < s; ++i)
      dst[i] = a[j] <= b[k] ? a[j++] : b[k++];
  } else {
    long j = s - 1, k = s - 1;
    for (long i = s - 1; i >= 0; --i)
      dst[i] = a[j] >= b[k] ? a[j--] : b[k--];
  }
}

/* The checksum of `count` sorted keys starting at global position first. */
static inline uint64_t bitonic_checksum(const bitonic_key *k, long count,
                                        long first) {
  uint64_t s = 0;
  for (long i = 0; i < count; ++i)
    s += (uint64_t)(uint32_t)k[i] * (uint64_t)(1 + (first + i) % 13);
  return s;
}

/* The input sorted serially (qsort of all n keys). */
static inline bitonic_key *bitonic_serial(const char *prog, long n) {
  bitonic_key *all = twin_malloc(prog, sizeof(bitonic_key) * (size_t)n);
  for (long i = 0; i < n; ++i)
    all[i] = bitonic_input(i);
  qsort(all, (size_t)n, sizeof *all, bitonic_cmp);
  return all;
}

/* 0 when the s keys of tile t equal the serial sort's, else 1 with a
 * message naming the first differing position. */
static inline int bitonic_check_tile(const char *prog, const bitonic_key *k,
                                     const bitonic_key *serial, long s,
                                     long t) {
  for (long i = 0; i < s; ++i)
    if (k[i] != serial[t * s + i]) {
      fprintf(stderr, "%s: key %ld is %d, the serial sort's %d\n", prog,
              t * s + i, (int)k[i], (int)serial[t * s + i]);
      return 1;
    }
  return 0;
}

#endif
