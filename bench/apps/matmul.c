/* blocked matrix multiplication (Myrmics paper's Matrix Multiplication
 * kernel): C = A x B for --n x --n doubles stored as
 * --bs x --bs blocks, one task per block product:
 *
 *   C[i][j] += A[i][k] * B[k][j]   depend(in: A[i][k], B[k][j])
 *                                  depend(inout: C[i][j])
 *
 * The k products into one C block form a chain (in k order, as serially);
 * different C blocks are independent.
 */
#include "app_common.h"

static void gemm_block(const double *a, const double *b, double *c, long bs) {
  for (long i = 0; i < bs; i++)
    for (long k = 0; k < bs; k++) {
      double x = a[i * bs + k];
      for (long j = 0; j < bs; j++)
        c[i * bs + j] += x * b[k * bs + j];
    }
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"n", 1024, 1, 1 << 16, "matrix side (rounded up to a multiple of bs)",
       NULL},
      {"bs", 64, 1, 1 << 16, "block side", NULL},
  };
  app_ctx ctx = {.name = "matmul", .opts = opts, .nopts = 2};
  app_parse(&ctx, argc, argv);
  long bs = opts[1].value, nb = (opts[0].value + bs - 1) / bs;
  opts[0].value = nb * bs;
  size_t blk = (size_t)(bs * bs), total = (size_t)(nb * nb) * blk;

  double *a = (double *)app_alloc(&ctx, sizeof(double) * total);
  double *b = (double *)app_alloc(&ctx, sizeof(double) * total);
  double *want = (double *)app_alloc(&ctx, sizeof(double) * total);
  double *got = (double *)app_alloc(&ctx, sizeof(double) * total);
  uint64_t seed = 8;
  for (size_t e = 0; e < total; e++) {
    a[e] = app_rand_unit(&seed) - 0.5;
    b[e] = app_rand_unit(&seed) - 0.5;
  }
#define BLOCK(m, i, j) (&(m)[((size_t)(i) * (size_t)nb + (size_t)(j)) * blk])

  double t0 = omp_get_wtime();
  for (long i = 0; i < nb; i++)
    for (long j = 0; j < nb; j++)
      for (long k = 0; k < nb; k++)
        gemm_block(BLOCK(a, i, k), BLOCK(b, k, j), BLOCK(want, i, j), bs);
  ctx.serial_s = omp_get_wtime() - t0;

  app_warm_up(&ctx);
  app_task_times_open(&ctx, nb * nb * nb);
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(ctx.threads)
#pragma omp single
  {
    for (long i = 0; i < nb; i++)
      for (long j = 0; j < nb; j++)
        for (long k = 0; k < nb; k++) {
          const double *ab = BLOCK(a, i, k), *bb = BLOCK(b, k, j);
          double *cb = BLOCK(got, i, j);
          /* clang-format off */
#pragma omp task depend(in : ab[0], bb[0]) depend(inout : cb[0]) \
    firstprivate(ab, bb, cb, bs, i, j, k)
          /* clang-format on */
          {
            double ts = app_task_begin();
            gemm_block(ab, bb, cb, bs);
            app_task_end((i * nb + j) * nb + k, ts);
          }
        }
#pragma omp taskwait
  }
  double t1 = omp_get_wtime();
  ctx.time_s = t1 - t0;
  app_task_times_write(&ctx, t0, t1);
  ctx.tasks = nb * nb * nb;
  app_check_doubles(&ctx, "C", got, want, total);
  app_report(
      &ctx,
      app_runtime(&ctx, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
