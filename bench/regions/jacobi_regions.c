/* Jacobi with weft regions (jacobi_common.h): one region per row block
 * holding the block's two buffers; per sweep one task per block, out on its
 * destination buffer and in on the source buffers of the block and its two
 * neighbours (Myrmics' decomposition: regions of groups of rows). The main
 * program then waits for the root region. Prints the time of the sweeps and
 * a checksum; --verify also runs the sweeps serially and compares the grids
 * bit for bit (exit 1 if they differ).
 *
 * usage: jacobi_regions [--n N] [--iters I] [--blocks B] [--verify 1]
 *        (threads: WEFT_NUM_THREADS) */
#include "jacobi_common.h"

#include "regions_twin.h"

#include <stdint.h>

static long g_n, g_rows;
static double *g_hot, *g_cold; /* the fixed top and bottom border rows */

/* args: dst, src, north source (or NULL), south source (or NULL). */
static void sweep_task(void **args) {
  double *dst = args[0], *src = args[1];
  const double *north =
      args[2] ? (const double *)args[2] + (g_rows - 1) * (g_n + 2) : g_hot;
  const double *south = args[3] ? (const double *)args[3] : g_cold;
  jacobi_rows(dst, src, north, south, g_rows, g_n);
}

int main(int argc, char **argv) {
  long verify = jacobi_take_verify(&argc, argv);
  jacobi_opts o = jacobi_parse(argc, argv, 8);
  g_n = o.n;
  g_rows = o.n / o.blocks;
  size_t row_bytes = sizeof(double) * (size_t)(o.n + 2);
  g_hot = malloc(row_bytes);
  g_cold = calloc(1, row_bytes);
  for (long j = 0; j < o.n + 2; ++j)
    g_hot[j] = 1.0;
  double **buf[2];
  buf[0] = calloc((size_t)o.blocks, sizeof(double *));
  buf[1] = calloc((size_t)o.blocks, sizeof(double *));
  for (long b = 0; b < o.blocks; ++b) {
    weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 1);
    for (int k = 0; k < 2; ++k) {
      buf[k][b] = weft_alloc(row_bytes * (size_t)g_rows, r);
      if (!r || !buf[k][b])
        twin_fail("jacobi_regions", "weft_alloc");
      memset(buf[k][b], 0, row_bytes * (size_t)g_rows);
    }
  }
  twin_timed_begin("jacobi_regions");
  double t0 = jacobi_now();
  for (long it = 0; it < o.iters; ++it) {
    double **src = buf[it % 2], **dst = buf[(it + 1) % 2];
    for (long b = 0; b < o.blocks; ++b) {
      void *args[4] = {dst[b], src[b], b > 0 ? src[b - 1] : NULL,
                       b + 1 < o.blocks ? src[b + 1] : NULL};
      int types[4] = {WEFT_ARG_OUT, WEFT_ARG_IN,
                      b > 0 ? WEFT_ARG_IN : WEFT_ARG_SAFE,
                      b + 1 < o.blocks ? WEFT_ARG_IN : WEFT_ARG_SAFE};
      if (weft_rspawn(sweep_task, 4, args, types) != WEFT_OK)
        twin_fail("jacobi_regions", "weft_rspawn");
    }
  }
  twin_wait_all("jacobi_regions");
  double t1 = jacobi_now();
  twin_timed_end("jacobi_regions");
  double **fin = buf[o.iters % 2];
  double sum = 0;
  for (long b = 0; b < o.blocks; ++b)
    sum += jacobi_checksum(fin[b], g_rows, o.n, b * g_rows);
  printf("jacobi_regions n=%ld iters=%ld blocks=%ld threads=%d time_s=%.6f "
         "checksum=%.17g\n",
         o.n, o.iters, o.blocks, weft_num_threads(), t1 - t0, sum);
  if (verify) {
    double *f = jacobi_serial(o.n, o.iters) + (o.n + 2);
    for (long b = 0; b < o.blocks; ++b)
      if (memcmp(f + b * g_rows * (o.n + 2), fin[b],
                 row_bytes * (size_t)g_rows)) {
        fprintf(stderr,
                "jacobi_regions: block %ld differs from the serial "
                "sweeps\n",
                b);
        return 1;
      }
    printf("verified against the serial sweeps\n");
  }
  return 0;
}
