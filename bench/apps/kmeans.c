/* k-means clustering (Myrmics paper's K-Means kernel): --n 3-D points into
 * --k clusters, --iters iterations, blocked by --bs points. Per iteration:
 *
 *   assign   one task per block: depend(in: centres) depend(out: part[b]);
 *            assigns each point of the block to its nearest centre and sums
 *            the block's points per cluster into part[b]
 *   reduce   a binary tree of tasks, part[b] += part[b + s]:
 *            depend(inout: part[b]) depend(in: part[b + s])
 *   update   one task: depend(in: part[0]) depend(out: centres); the new
 *            centres are the means
 *
 * No barrier between iterations: the next iteration's assign tasks wait for
 * the update through the centres. The tree fixes the order of the floating
 * point sums, so the serial run (the same tree, in order) matches exactly.
 */
#include "app_common.h"

enum { PART = 4 }; /* per cluster: sum x, y, z and count */

typedef struct problem {
  long n, k, bs, nblocks;
  const double *pt; /* n * 3 */
  long *cluster;    /* n */
  double *centre;   /* k * 3 */
  double *part;     /* nblocks * k * PART */
} problem;

static void assign(problem *p, long b) {
  double *part = &p->part[b * p->k * PART];
  memset(part, 0, sizeof(double) * (size_t)(p->k * PART));
  long hi = (b + 1) * p->bs < p->n ? (b + 1) * p->bs : p->n;
  for (long i = b * p->bs; i < hi; i++) {
    const double *x = &p->pt[i * 3];
    long best = 0;
    double best_d = 1e300;
    for (long c = 0; c < p->k; c++) {
      const double *y = &p->centre[c * 3];
      double d = (x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
                 (x[2] - y[2]) * (x[2] - y[2]);
      if (d < best_d) {
        best_d = d;
        best = c;
      }
    }
    p->cluster[i] = best;
    for (int d = 0; d < 3; d++)
      part[best * PART + d] += x[d];
    part[best * PART + 3] += 1;
  }
}

static void reduce(problem *p, long into, long from) {
  double *dst = &p->part[into * p->k * PART];
  const double *src = &p->part[from * p->k * PART];
  for (long e = 0; e < p->k * PART; e++)
    dst[e] += src[e];
}

static void update(problem *p) {
  for (long c = 0; c < p->k; c++) {
    const double *s = &p->part[c * PART];
    if (s[3] > 0)
      for (int d = 0; d < 3; d++)
        p->centre[c * 3 + d] = s[d] / s[3];
  }
}

static problem new_problem(const app_ctx *a, const double *pt, long n, long k,
                           long bs) {
  problem p = {n, k, bs, (n + bs - 1) / bs, pt, NULL, NULL, NULL};
  p.cluster = (long *)app_alloc(a, sizeof(long) * (size_t)n);
  p.centre = (double *)app_alloc(a, sizeof(double) * (size_t)(k * 3));
  p.part =
      (double *)app_alloc(a, sizeof(double) * (size_t)(p.nblocks * k * PART));
  memcpy(p.centre, pt, sizeof(double) * (size_t)(k * 3)); /* the first k */
  return p;
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"n", 500000, 1, 1L << 30, "points (3-D)", NULL},
      {"k", 16, 1, 4096, "clusters", NULL},
      {"bs", 8192, 1, 1L << 30, "points per assign task", NULL},
      {"iters", 30, 1, 1 << 20, "iterations", NULL},
  };
  app_ctx a = {.name = "kmeans", .opts = opts, .nopts = 4};
  app_parse(&a, argc, argv);
  long n = opts[0].value, k = opts[1].value, bs = opts[2].value;
  long iters = opts[3].value;
  if (k > n)
    app_die(&a, "--k %ld is more than --n %ld points", k, n);

  double *pt = (double *)app_alloc(&a, sizeof(double) * (size_t)(n * 3));
  uint64_t seed = 5;
  for (long i = 0; i < n; i++) {
    double cx = (double)(app_rand(&seed) % 10);
    for (int d = 0; d < 3; d++)
      pt[i * 3 + d] = cx * (d + 1) + 2 * app_rand_unit(&seed);
  }
  problem want = new_problem(&a, pt, n, k, bs),
          got = new_problem(&a, pt, n, k, bs);

  double t0 = omp_get_wtime();
  for (long it = 0; it < iters; it++) {
    for (long b = 0; b < want.nblocks; b++)
      assign(&want, b);
    for (long s = 1; s < want.nblocks; s *= 2)
      for (long b = 0; b + s < want.nblocks; b += 2 * s)
        reduce(&want, b, b + s);
    update(&want);
  }
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  app_task_times_open(&a, iters * 2 * got.nblocks);
  long tasks = 0;
  problem *p = &got;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    double *centres = p->centre;
    APP_DEP_ONLY(centres);
    for (long it = 0; it < iters; it++) {
      for (long b = 0; b < p->nblocks; b++) {
        double *part = &p->part[b * k * PART];
        APP_DEP_ONLY(part);
        long rank = tasks;
        /* clang-format off */
#pragma omp task depend(in : centres[0]) depend(out : part[0]) \
    firstprivate(b, rank)
        /* clang-format on */
        {
          double ts = app_task_begin();
          assign(p, b);
          app_task_end(rank, ts);
        }
        tasks++;
      }
      for (long s = 1; s < p->nblocks; s *= 2)
        for (long b = 0; b + s < p->nblocks; b += 2 * s) {
          double *into = &p->part[b * k * PART],
                 *from = &p->part[(b + s) * k * PART];
          APP_DEP_ONLY(into), APP_DEP_ONLY(from);
          long rank = tasks;
          /* clang-format off */
#pragma omp task depend(inout : into[0]) depend(in : from[0]) \
    firstprivate(b, s, rank)
          /* clang-format on */
          {
            double ts = app_task_begin();
            reduce(p, b, b + s);
            app_task_end(rank, ts);
          }
          tasks++;
        }
      double *total = p->part;
      APP_DEP_ONLY(total);
      long rank = tasks;
      /* clang-format off */
#pragma omp task depend(in : total[0]) depend(out : centres[0]) \
    firstprivate(rank)
      /* clang-format on */
      {
        double ts = app_task_begin();
        update(p);
        app_task_end(rank, ts);
      }
      tasks++;
    }
#pragma omp taskwait
  }
  double t1 = omp_get_wtime();
  a.time_s = t1 - t0;
  app_task_times_write(&a, t0, t1);
  a.tasks = tasks;
  app_check_doubles(&a, "centre", got.centre, want.centre, (size_t)(k * 3));
  app_check_ints(&a, "cluster", got.cluster, want.cluster, (size_t)n,
                 sizeof got.cluster[0]);
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
