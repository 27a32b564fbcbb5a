/* What the region benchmarks and their MPI twins share (matmul, bitonic,
 * kmeans; jacobi keeps its own jacobi_common.h): the option reader, the
 * clock, a hash of a global index (so that every rank, and the serial check,
 * makes the same input without a shared generator state) and the result
 * line the driver bench/run_regions.py reads.
 *
 * Every benchmark's inputs are chosen so that its arithmetic is exact
 * (small multiples of a power of two in doubles, or integers): the result
 * then does not depend on the order of a reduction, and the region version,
 * the MPI version at any rank count and the serial check agree bit for
 * bit. */
#ifndef WEFT_BENCH_TWINS_COMMON_H
#define WEFT_BENCH_TWINS_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* One integer option: "--name" and where its value goes. */
typedef struct twin_opt {
  const char *name;
  long *value;
} twin_opt;

/* Reads "--name value" pairs into opts[0..n) (every value an integer
 * >= 1); exits with status 2 and a message naming the program, the option
 * and the value on anything else. */
static inline void twin_parse(const char *prog, int argc, char **argv,
                              const twin_opt *opts, int n) {
  for (int i = 1; i < argc; ++i) {
    long *dst = NULL;
    for (int k = 0; k < n; ++k)
      if (!strcmp(argv[i], opts[k].name))
        dst = opts[k].value;
    if (!dst || i + 1 >= argc) {
      fprintf(stderr, "%s: unknown or incomplete option '%s'\n", prog, argv[i]);
      exit(2);
    }
    char *end = NULL;
    *dst = strtol(argv[++i], &end, 10);
    if (!*argv[i] || *end || *dst < 1) {
      fprintf(stderr, "%s: %s %s is not a positive integer\n", prog,
              argv[i - 1], argv[i]);
      exit(2);
    }
  }
}

/* Exits with status 2 naming the program, the option and its value when
 * cond does not hold. */
static inline void twin_require(int cond, const char *prog, const char *opt,
                                long value, const char *why) {
  if (!cond) {
    fprintf(stderr, "%s: %s %ld %s\n", prog, opt, value, why);
    exit(2);
  }
}

/* The kernels both versions of a benchmark call: kept out of line, so that
 * the region version (where a task calls them) and the MPI version (where
 * main's loop does) run the same machine code rather than whatever inlining
 * makes of each (kmeans' inlined kernel ran 30% slower in the MPI
 * version), and aligned to 64 bytes, so that the code also lies the same
 * way across cache lines in both programs: matmul's inner loop (32 bytes)
 * crossed a 64-byte line in the region program and not in the twin, and
 * the region program then took 0.26 s of CPU to the twin's 0.15 s in
 * stretches of a loaded machine (0.15 s both once aligned). */
#define TWIN_KERNEL __attribute__((noinline, aligned(64))) static

static inline int twin_pow2(long v) { return v > 0 && !(v & (v - 1)); }

static inline double twin_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds this process has used so far (all its threads): beside
 * twin_now's wall time, the work a run did whatever the machine's load
 * (a loaded machine stretches the wall time of one program more than its
 * twin's: matmul's weft/MPI wall ratio moved between 1.0 and 1.8 at load
 * 9-10 while the CPU seconds of the timed section agreed within 2%). */
static inline double twin_cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* splitmix64 of a global index: the input of element i, the same in every
 * program. */
static inline uint64_t twin_hash(uint64_t i) {
  uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* malloc, but a buffer of 2 MB or more is 2 MB-aligned and asks for
 * transparent huge pages (madvise), as weft's region allocator does for
 * its pages: without it the MPI versions ran on 4 KB pages against the
 * region versions' huge ones (this machine's THP mode is "madvise"), and
 * matmul's MPI version took 1.5-3x its region version's time at 1 rank. */
static inline void *twin_malloc(const char *prog, size_t bytes) {
  const size_t huge = (size_t)2 << 20;
  void *p = NULL;
  if (bytes >= huge) {
    size_t rounded = (bytes + huge - 1) / huge * huge;
    if (posix_memalign(&p, huge, rounded))
      p = NULL;
    else
      madvise(p, rounded, MADV_HUGEPAGE);
  } else {
    p = malloc(bytes ? bytes : 1);
  }
  if (!p) {
    fprintf(stderr, "%s: out of memory (%zu bytes)\n", prog, bytes);
    exit(1);
  }
  return p;
}

#endif
