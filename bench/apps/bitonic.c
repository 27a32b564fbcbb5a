/* bitonic sort (Myrmics paper's Bitonic Sort kernel): sorts --n = 2^p
 * integers with the bitonic network, blocked by --bs = 2^q elements. Each
 * block first sorts itself with the network's stages up to size bs (one
 * task); then for every merge size k > bs:
 *
 *   for every distance j >= bs: one task per pair of blocks (b, b ^ j/bs),
 *       compare-exchanging across them: depend(inout: block b, block b^j/bs)
 *   then one task per block for all distances j < bs: depend(inout: block)
 *
 * so the merge steps follow each other through the blocks they touch, with
 * no barrier. The result must equal the serial run of the same network and
 * be sorted.
 */
#include "app_common.h"

/* The network's compare-exchange of i and i ^ j within merge size k. */
static void exchange(uint32_t *v, long i, long j, long k) {
  long l = i ^ j;
  if (l <= i)
    return;
  int up = (i & k) == 0;
  if ((v[i] > v[l]) == up) {
    uint32_t t = v[i];
    v[i] = v[l];
    v[l] = t;
  }
}

/* Distances jmax..1 of merge size k on the block at lo (bs elements). */
static void local_steps(uint32_t *v, long lo, long bs, long k, long jmax) {
  for (long j = jmax; j > 0; j /= 2)
    for (long i = lo; i < lo + bs; i++)
      exchange(v, i, j, k);
}

/* The block at lo through all merge sizes up to bs. */
static void block_sort(uint32_t *v, long lo, long bs) {
  for (long k = 2; k <= bs; k *= 2)
    local_steps(v, lo, bs, k, k / 2);
}

/* Distance j >= bs of merge size k between the block at lo and its
 * partner at lo ^ j. */
static void cross_step(uint32_t *v, long lo, long bs, long k, long j) {
  for (long i = lo; i < lo + bs; i++)
    exchange(v, i, j, k);
}

static int is_pow2(long x) { return x > 0 && (x & (x - 1)) == 0; }

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"n", 1L << 20, 2, 1L << 32, "elements (a power of 2)", NULL},
      {"bs", 1L << 14, 2, 1L << 32, "elements per block (a power of 2)", NULL},
  };
  app_ctx a = {.name = "bitonic", .opts = opts, .nopts = 2};
  app_parse(&a, argc, argv);
  long n = opts[0].value, bs = opts[1].value;
  if (!is_pow2(n) || !is_pow2(bs) || bs > n)
    app_die(&a, "--n %ld and --bs %ld must be powers of 2 with bs <= n", n, bs);

  uint32_t *want = (uint32_t *)app_alloc(&a, sizeof(uint32_t) * (size_t)n);
  uint32_t *got = (uint32_t *)app_alloc(&a, sizeof(uint32_t) * (size_t)n);
  uint64_t seed = 31337;
  for (long i = 0; i < n; i++)
    want[i] = got[i] = (uint32_t)app_rand(&seed);

  double t0 = omp_get_wtime();
  for (long lo = 0; lo < n; lo += bs)
    block_sort(want, lo, bs);
  for (long k = 2 * bs; k <= n; k *= 2) {
    for (long j = k / 2; j >= bs; j /= 2)
      for (long lo = 0; lo < n; lo += bs)
        if ((lo ^ j) > lo)
          cross_step(want, lo, bs, k, j);
    for (long lo = 0; lo < n; lo += bs)
      local_steps(want, lo, bs, k, bs / 2);
  }
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  long tasks = 0;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    for (long lo = 0; lo < n; lo += bs) {
      uint32_t *blk = &got[lo];
      APP_DEP_ONLY(blk);
#pragma omp task depend(inout : blk[0]) firstprivate(lo)
      block_sort(got, lo, bs);
      tasks++;
    }
    for (long k = 2 * bs; k <= n; k *= 2) {
      for (long j = k / 2; j >= bs; j /= 2)
        for (long lo = 0; lo < n; lo += bs) {
          if ((lo ^ j) <= lo)
            continue;
          uint32_t *mine = &got[lo], *partner = &got[lo ^ j];
          APP_DEP_ONLY(mine), APP_DEP_ONLY(partner);
#pragma omp task depend(inout : mine[0], partner[0]) firstprivate(lo, k, j)
          cross_step(got, lo, bs, k, j);
          tasks++;
        }
      for (long lo = 0; lo < n; lo += bs) {
        uint32_t *blk = &got[lo];
        APP_DEP_ONLY(blk);
#pragma omp task depend(inout : blk[0]) firstprivate(lo, k)
        local_steps(got, lo, bs, k, bs / 2);
        tasks++;
      }
    }
#pragma omp taskwait
  }
  a.time_s = omp_get_wtime() - t0;
  a.tasks = tasks;
  app_check_ints(&a, "element", got, want, (size_t)n, sizeof got[0]);
  for (long i = 1; i < n; i++)
    if (want[i - 1] > want[i])
      app_die(&a,
              "check FAILED: the network left element %ld (%u) before "
              "%ld (%u) unsorted",
              i - 1, want[i - 1], i, want[i]);
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
