/* sparselu (Nexus++ and Picos papers; the BOTS / OmpSs kernel): LU
 * factorisation without pivoting of a blocked sparse matrix, NB x NB blocks
 * of BS x BS doubles, some blocks absent (NULL). Step k has four kinds of
 * task, ordered by depend clauses on the blocks:
 *
 *   lu0(A[k][k])                        inout diagonal block
 *   fwd(A[k][k], A[k][j])   j > k       in diagonal, inout row block
 *   bdiv(A[k][k], A[i][k])  i > k       in diagonal, inout column block
 *   bmod(A[i][k], A[k][j], A[i][j])     in, in, inout (A[i][j] is allocated
 *                                       by the creating thread when absent)
 *
 * Small --bs gives fine-grained tasks (the fine-grained row).
 *
 *   --nb NB   blocks per dimension
 *   --bs BS   block side (doubles)
 */
#include "app_common.h"

typedef double *block;

static void lu0(double *diag, long bs) {
  for (long k = 0; k < bs; k++)
    for (long i = k + 1; i < bs; i++) {
      diag[i * bs + k] /= diag[k * bs + k];
      for (long j = k + 1; j < bs; j++)
        diag[i * bs + j] -= diag[i * bs + k] * diag[k * bs + j];
    }
}

static void fwd(const double *diag, double *col, long bs) {
  for (long k = 0; k < bs; k++)
    for (long i = k + 1; i < bs; i++)
      for (long j = 0; j < bs; j++)
        col[i * bs + j] -= diag[i * bs + k] * col[k * bs + j];
}

static void bdiv(const double *diag, double *row, long bs) {
  for (long i = 0; i < bs; i++)
    for (long k = 0; k < bs; k++) {
      row[i * bs + k] /= diag[k * bs + k];
      for (long j = k + 1; j < bs; j++)
        row[i * bs + j] -= row[i * bs + k] * diag[k * bs + j];
    }
}

static void bmod(const double *row, const double *col, double *inner, long bs) {
  for (long i = 0; i < bs; i++)
    for (long k = 0; k < bs; k++) {
      double r = row[i * bs + k];
      for (long j = 0; j < bs; j++)
        inner[i * bs + j] -= r * col[k * bs + j];
    }
}

/* The BOTS sparsity pattern: which blocks start present. */
static int present(long i, long j) {
  if (i == j || i == j - 1 || i - 1 == j)
    return 1;
  if ((i < j && i % 3 != 0) || (i > j && j % 3 != 0))
    return 0;
  return i % 2 == 0 && j % 2 == 0;
}

static block *genmat(const app_ctx *a, long nb, long bs) {
  block *m = (block *)app_alloc(a, sizeof(block) * (size_t)(nb * nb));
  uint64_t seed = 12345;
  for (long i = 0; i < nb; i++)
    for (long j = 0; j < nb; j++) {
      if (!present(i, j))
        continue;
      double *b = (double *)app_alloc(a, sizeof(double) * (size_t)(bs * bs));
      for (long e = 0; e < bs * bs; e++)
        b[e] = app_rand_unit(&seed) - 0.5;
      if (i == j) /* diagonally dominant: no pivoting needed */
        for (long e = 0; e < bs; e++)
          b[e * bs + e] += 2.0 * (double)(bs * nb);
      m[i * nb + j] = b;
    }
  return m;
}

static void sparselu_serial(const app_ctx *a, block *m, long nb, long bs) {
  for (long k = 0; k < nb; k++) {
    lu0(m[k * nb + k], bs);
    for (long j = k + 1; j < nb; j++)
      if (m[k * nb + j])
        fwd(m[k * nb + k], m[k * nb + j], bs);
    for (long i = k + 1; i < nb; i++)
      if (m[i * nb + k])
        bdiv(m[k * nb + k], m[i * nb + k], bs);
    for (long i = k + 1; i < nb; i++)
      if (m[i * nb + k])
        for (long j = k + 1; j < nb; j++)
          if (m[k * nb + j]) {
            if (!m[i * nb + j])
              m[i * nb + j] =
                  (double *)app_alloc(a, sizeof(double) * (size_t)(bs * bs));
            bmod(m[i * nb + k], m[k * nb + j], m[i * nb + j], bs);
          }
  }
}

/* The same steps as tasks; returns the number of tasks created. */
static long sparselu_tasks(const app_ctx *a, block *m, long nb, long bs) {
  long tasks = 0;
  for (long k = 0; k < nb; k++) {
    double *diag = m[k * nb + k];
#pragma omp task depend(inout : diag[0]) firstprivate(diag, bs)
    lu0(diag, bs);
    tasks++;
    for (long j = k + 1; j < nb; j++) {
      double *col = m[k * nb + j];
      if (!col)
        continue;
        /* clang-format off */
#pragma omp task depend(in : diag[0]) depend(inout : col[0]) \
    firstprivate(diag, col, bs)
      /* clang-format on */
      fwd(diag, col, bs);
      tasks++;
    }
    for (long i = k + 1; i < nb; i++) {
      double *row = m[i * nb + k];
      if (!row)
        continue;
        /* clang-format off */
#pragma omp task depend(in : diag[0]) depend(inout : row[0]) \
    firstprivate(diag, row, bs)
      /* clang-format on */
      bdiv(diag, row, bs);
      tasks++;
    }
    for (long i = k + 1; i < nb; i++) {
      double *row = m[i * nb + k];
      if (!row)
        continue;
      for (long j = k + 1; j < nb; j++) {
        double *col = m[k * nb + j];
        if (!col)
          continue;
        if (!m[i * nb + j])
          m[i * nb + j] =
              (double *)app_alloc(a, sizeof(double) * (size_t)(bs * bs));
        double *inner = m[i * nb + j];
        /* clang-format off */
#pragma omp task depend(in : row[0], col[0]) depend(inout : inner[0]) \
    firstprivate(row, col, inner, bs)
        /* clang-format on */
        bmod(row, col, inner, bs);
        tasks++;
      }
    }
  }
#pragma omp taskwait
  return tasks;
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"nb", 50, 1, 4096, "blocks per dimension", NULL},
      {"bs", 32, 1, 4096, "block side (doubles)", NULL},
  };
  app_ctx a = {.name = "sparselu", .opts = opts, .nopts = 2};
  app_parse(&a, argc, argv);
  long nb = opts[0].value, bs = opts[1].value;

  block *want = genmat(&a, nb, bs);
  double t0 = omp_get_wtime();
  sparselu_serial(&a, want, nb, bs);
  a.serial_s = omp_get_wtime() - t0;

  block *got = genmat(&a, nb, bs);
  app_warm_up(&a);
  long tasks = 0;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  tasks = sparselu_tasks(&a, got, nb, bs);
  a.time_s = omp_get_wtime() - t0;
  a.tasks = tasks;

  for (long b = 0; b < nb * nb; b++) {
    if (!got[b] != !want[b])
      app_die(&a,
              "check FAILED: block (%ld,%ld) is %s with tasks but %s "
              "serially",
              b / nb, b % nb, got[b] ? "present" : "absent",
              want[b] ? "present" : "absent");
    if (got[b]) {
      char what[64];
      snprintf(what, sizeof what, "block(%ld,%ld)", b / nb, b % nb);
      app_check_doubles(&a, what, got[b], want[b], (size_t)(bs * bs));
    }
  }
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
