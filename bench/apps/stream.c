/* stream-deps and stream-barr (Picos paper; STREAM's kernels as in the
 * Nexus++/OmpSs task versions): per iteration the four STREAM kernels over
 * arrays a, b, c of --n doubles, one task per block of --bs elements:
 *
 *   copy c = a; scale b = s*c; add c = a + b; triad a = b + s*c
 *
 * Built twice from this file:
 *   app_stream-deps  (STREAM_BARRIER 0) each task names its blocks in depend
 *                    clauses (in: sources, out: destination), so a block's
 *                    kernels chain across kernels and iterations with no
 *                    barrier at all;
 *   app_stream-barr  (STREAM_BARRIER 1) no depend clauses, a taskwait after
 *                    every kernel.
 *
 *   --n N     elements per array
 *   --bs B    elements per task
 *   --iters I times the four kernels run
 */
#include "app_common.h"

#ifndef STREAM_BARRIER
#error "define STREAM_BARRIER to 0 (stream-deps) or 1 (stream-barr)"
#endif

#define SCALAR 3.0

enum { COPY, SCALE, ADD, TRIAD, KERNELS };

/* Kernel k over elements [lo, hi). */
static void kernel(int k, double *a, double *b, double *c, long lo, long hi) {
  switch (k) {
  case COPY:
    for (long i = lo; i < hi; i++)
      c[i] = a[i];
    break;
  case SCALE:
    for (long i = lo; i < hi; i++)
      b[i] = SCALAR * c[i];
    break;
  case ADD:
    for (long i = lo; i < hi; i++)
      c[i] = a[i] + b[i];
    break;
  default:
    for (long i = lo; i < hi; i++)
      a[i] = b[i] + SCALAR * c[i];
    break;
  }
}

typedef struct arrays {
  double *a, *b, *c;
} arrays;

static arrays new_arrays(const app_ctx *ctx, long n) {
  arrays v;
  v.a = (double *)app_alloc(ctx, sizeof(double) * (size_t)n);
  v.b = (double *)app_alloc(ctx, sizeof(double) * (size_t)n);
  v.c = (double *)app_alloc(ctx, sizeof(double) * (size_t)n);
  for (long i = 0; i < n; i++) {
    v.a[i] = 1.0 + (double)(i % 7);
    v.b[i] = 2.0;
    v.c[i] = 0.0;
  }
  return v;
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"n", 2000000, 1, 1L << 32, "elements per array", NULL},
      {"bs", 32768, 1, 1L << 32, "elements per task", NULL},
      {"iters", 40, 1, 1 << 20, "times the four kernels run", NULL},
  };
  app_ctx ctx = {.name = STREAM_BARRIER ? "stream-barr" : "stream-deps",
                 .opts = opts,
                 .nopts = 3};
  app_parse(&ctx, argc, argv);
  long n = opts[0].value, bs = opts[1].value, iters = opts[2].value;

  arrays want = new_arrays(&ctx, n), got = new_arrays(&ctx, n);
  double t0 = omp_get_wtime();
  for (long it = 0; it < iters; it++)
    for (int k = 0; k < KERNELS; k++)
      for (long lo = 0; lo < n; lo += bs)
        kernel(k, want.a, want.b, want.c, lo, lo + bs < n ? lo + bs : n);
  ctx.serial_s = omp_get_wtime() - t0;

  app_warm_up(&ctx);
  long tasks = 0;
  double *a = got.a, *b = got.b, *c = got.c;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(ctx.threads)
#pragma omp single
  {
    for (long it = 0; it < iters; it++)
      for (int k = 0; k < KERNELS; k++) {
        for (long lo = 0; lo < n; lo += bs) {
          long hi = lo + bs < n ? lo + bs : n;
#if STREAM_BARRIER
#pragma omp task firstprivate(k, lo, hi) shared(a, b, c)
          kernel(k, a, b, c, lo, hi);
#else
          /* Sources and destination of kernel k on this block. */
          double *src1 = k == COPY || k == ADD ? &a[lo]
                         : k == SCALE          ? &c[lo]
                                               : &b[lo];
          double *src2 = k == ADD ? &b[lo] : k == TRIAD ? &c[lo] : src1;
          double *dst = k == COPY || k == ADD ? &c[lo]
                        : k == SCALE          ? &b[lo]
                                              : &a[lo];
          APP_DEP_ONLY(src1), APP_DEP_ONLY(src2), APP_DEP_ONLY(dst);
          /* clang-format off */
#pragma omp task depend(in : src1[0], src2[0]) depend(out : dst[0]) \
    firstprivate(k, lo, hi) shared(a, b, c)
          /* clang-format on */
          kernel(k, a, b, c, lo, hi);
#endif
          tasks++;
        }
#if STREAM_BARRIER
#pragma omp taskwait
#endif
      }
#pragma omp taskwait
  }
  ctx.time_s = omp_get_wtime() - t0;
  ctx.tasks = tasks;
  app_check_doubles(&ctx, "a", got.a, want.a, (size_t)n);
  app_check_doubles(&ctx, "b", got.b, want.b, (size_t)n);
  app_check_doubles(&ctx, "c", got.c, want.c, (size_t)n);
  app_report(
      &ctx,
      app_runtime(&ctx, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
