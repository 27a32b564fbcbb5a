/* jacobi (Picos paper, from KASTORS jacobi-task-dep; Myrmics paper's Jacobi
 * iteration): sweeps over an N x N grid with a fixed border, each element
 * replaced by the average of its four neighbours, two grids alternating as
 * source and destination. One task per --bs x --bs block per sweep:
 *
 *   depend(in: src block, its north, south, west and east blocks)
 *   depend(out: dst block)
 *
 * so a block of sweep s + 1 starts as soon as its neighbourhood of sweep s
 * is done (no barrier between sweeps).
 *
 *   --n N      grid side (interior elements)
 *   --bs B     block side (N is rounded up to a multiple of B)
 *   --iters I  sweeps
 */
#include "app_common.h"

typedef struct grid {
  long n, stride; /* interior side; row length with the border */
  double *cell;   /* (n + 2) x (n + 2), the border fixed */
} grid;

static double *at(const grid *g, long i, long j) {
  return &g->cell[(i + 1) * g->stride + j + 1];
}

/* One sweep of the block at (bi, bj): src -> dst. */
static void sweep_block(const grid *src, grid *dst, long bi, long bj, long bs) {
  for (long i = bi * bs; i < bi * bs + bs; i++)
    for (long j = bj * bs; j < bj * bs + bs; j++)
      *at(dst, i, j) = 0.25 * (*at(src, i - 1, j) + *at(src, i + 1, j) +
                               *at(src, i, j - 1) + *at(src, i, j + 1));
}

static grid new_grid(const app_ctx *a, long n) {
  grid g = {
      n, n + 2,
      (double *)app_alloc(a, sizeof(double) * (size_t)((n + 2) * (n + 2)))};
  for (long j = -1; j <= n; j++) /* the hot top edge */
    *at(&g, -1, j) = 1.0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      *at(&g, i, j) = (double)((i * 31 + j * 17) % 101) / 101.0;
  return g;
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"n", 1024, 1, 1 << 16, "grid side (interior elements)", NULL},
      {"bs", 64, 1, 1 << 16, "block side", NULL},
      {"iters", 200, 1, 1 << 20, "sweeps", NULL},
  };
  app_ctx a = {.name = "jacobi", .opts = opts, .nopts = 3};
  app_parse(&a, argc, argv);
  long bs = opts[1].value, iters = opts[2].value;
  long nb = (opts[0].value + bs - 1) / bs, n = nb * bs;
  opts[0].value = n;

  grid want[2] = {new_grid(&a, n), new_grid(&a, n)};
  grid got[2] = {new_grid(&a, n), new_grid(&a, n)};

  double t0 = omp_get_wtime();
  for (long s = 0; s < iters; s++)
    for (long bi = 0; bi < nb; bi++)
      for (long bj = 0; bj < nb; bj++)
        sweep_block(&want[s % 2], &want[(s + 1) % 2], bi, bj, bs);
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    for (long s = 0; s < iters; s++) {
      grid *src = &got[s % 2], *dst = &got[(s + 1) % 2];
      for (long bi = 0; bi < nb; bi++)
        for (long bj = 0; bj < nb; bj++) {
          /* Blocks outside the grid stand for the fixed border: the block
           * itself then, which adds no ordering. */
          const double *c = at(src, bi * bs, bj * bs);
          const double *no = bi ? at(src, (bi - 1) * bs, bj * bs) : c;
          const double *so = bi + 1 < nb ? at(src, (bi + 1) * bs, bj * bs) : c;
          const double *we = bj ? at(src, bi * bs, (bj - 1) * bs) : c;
          const double *ea = bj + 1 < nb ? at(src, bi * bs, (bj + 1) * bs) : c;
          double *out = at(dst, bi * bs, bj * bs);
          APP_DEP_ONLY(no), APP_DEP_ONLY(so), APP_DEP_ONLY(we),
              APP_DEP_ONLY(ea), APP_DEP_ONLY(out);
          /* clang-format off */
#pragma omp task depend(in : c[0], no[0], so[0], we[0], ea[0]) \
    depend(out : out[0]) firstprivate(src, dst, bi, bj, bs)
          /* clang-format on */
          sweep_block(src, dst, bi, bj, bs);
        }
    }
#pragma omp taskwait
  }
  a.time_s = omp_get_wtime() - t0;
  a.tasks = iters * nb * nb;
  app_check_doubles(&a, "grid", got[iters % 2].cell, want[iters % 2].cell,
                    (size_t)((n + 2) * (n + 2)));
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
