/* Matrix multiplication with weft regions (matmul_common.h), after Myrmics'
 * bench/matrix_mult_myrmics.c: each matrix is split into regions x regions
 * regions, each holding a 2D piece of tiles x tiles tiles (objects, made by
 * one weft_balloc) and the table of its tiles. Per region phase q and region
 * (i, j), the main program spawns one task in on A's region (i, q), in on
 * B's region (q, j) and inout on C's region (i, j); that task spawns, for
 * each phase inside the piece and each tile of C's piece, a child in on the
 * A and B tiles and inout on the C tile (the paper's hierarchical
 * decomposition: coarse region tasks, fine object tasks). Myrmics' version
 * also copies A's and B's pieces into work regions first, its transfer on a
 * machine without coherent caches; on shared memory the copy would only add
 * work, so the tasks read the pieces in place.
 *
 * usage: matmul_regions [--n N] [--regions R] [--tiles T] [--verify 1]
 *        (threads: WEFT_NUM_THREADS) */
#include "matmul_common.h"

#include "regions_twin.h"

static const char *prog = "matmul_regions";
static long g_tiles, g_b;

/* args: C tile, A tile, B tile. */
static void tile_task(void **args) {
  matmul_tile(args[0], args[1], args[2], g_b);
}

/* args: A region, B region, C region, then their tile tables (SAFE). */
static void region_task(void **args) {
  double **a = args[3], **b = args[4], **c = args[5];
  long t = g_tiles;
  int types[3] = {WEFT_ARG_INOUT, WEFT_ARG_IN, WEFT_ARG_IN};
  for (long p = 0; p < t; ++p)
    for (long i = 0; i < t; ++i)
      for (long j = 0; j < t; ++j) {
        void *targs[3] = {c[i * t + j], a[i * t + p], b[p * t + j]};
        if (weft_rspawn(tile_task, 3, targs, types) != WEFT_OK)
          twin_fail(prog, "weft_rspawn (tile)");
      }
}

int main(int argc, char **argv) {
  matmul_opts o = matmul_parse(prog, argc, argv);
  long r = o.regions, t = o.tiles, b = o.b;
  g_tiles = t;
  g_b = b;
  size_t tile_bytes = sizeof(double) * (size_t)(b * b);
  /* [matrix][region row * r + region col] */
  weft_rid *rid[3];
  double ***tab[3];
  for (int m = 0; m < 3; ++m) {
    rid[m] = twin_malloc(prog, sizeof(weft_rid) * (size_t)(r * r));
    tab[m] = twin_malloc(prog, sizeof(double **) * (size_t)(r * r));
    for (long q = 0; q < r * r; ++q) {
      rid[m][q] = weft_ralloc(WEFT_ROOT_REGION, 1);
      if (!rid[m][q])
        twin_fail(prog, "weft_ralloc");
      tab[m][q] = weft_alloc(sizeof(double *) * (size_t)(t * t), rid[m][q]);
      if (!tab[m][q] || weft_balloc(tile_bytes, rid[m][q], (int)(t * t),
                                    (void **)tab[m][q]) != WEFT_OK)
        twin_fail(prog, "weft_alloc");
      for (long k = 0; k < t * t; ++k) {
        long ti = (q / r) * t + k / t, tj = (q % r) * t + k % t;
        if (m < 2)
          matmul_fill_tile(tab[m][q][k], m, o.n, b, ti, tj);
        else
          memset(tab[m][q][k], 0, tile_bytes);
      }
    }
  }
  twin_timed_begin(prog);
  double t0 = twin_now(), c0 = twin_cpu_now();
  int types[6] = {WEFT_ARG_IN | WEFT_ARG_REGION,
                  WEFT_ARG_IN | WEFT_ARG_REGION,
                  WEFT_ARG_INOUT | WEFT_ARG_REGION,
                  WEFT_ARG_SAFE,
                  WEFT_ARG_SAFE,
                  WEFT_ARG_SAFE};
  for (long q = 0; q < r; ++q)
    for (long i = 0; i < r; ++i)
      for (long j = 0; j < r; ++j) {
        long ia = i * r + q, ib = q * r + j, ic = i * r + j;
        void *args[6] = {rid_arg(rid[0][ia]), rid_arg(rid[1][ib]),
                         rid_arg(rid[2][ic]), tab[0][ia],
                         tab[1][ib],          tab[2][ic]};
        if (weft_rspawn(region_task, 6, args, types) != WEFT_OK)
          twin_fail(prog, "weft_rspawn (region)");
      }
  twin_wait_all(prog);
  double t1 = twin_now(), c1 = twin_cpu_now();
  twin_timed_end(prog);
  double sum = 0;
  for (long q = 0; q < r * r; ++q)
    for (long k = 0; k < t * t; ++k)
      sum += matmul_tile_checksum(tab[2][q][k], b, (q / r) * t + k / t,
                                  (q % r) * t + k % t);
  printf("matmul_regions n=%ld regions=%ld tiles=%ld threads=%d time_s=%.6f "
         "checksum=%.17g cpu_s=%.6f\n",
         o.n, r, t, weft_num_threads(), t1 - t0, sum, c1 - c0);
  if (o.verify) {
    double *serial = matmul_serial(prog, o.n);
    for (long q = 0; q < r * r; ++q)
      for (long k = 0; k < t * t; ++k)
        if (matmul_check_tile(prog, tab[2][q][k], serial, o.n, b,
                              (q / r) * t + k / t, (q % r) * t + k % t))
          return 1;
    free(serial);
    printf("verified against the serial product\n");
  }
  return 0;
}
