/* Jacobi as a plain MPI program (jacobi_common.h), the twin of
 * jacobi_regions.c: rank r owns block r of the rows (--blocks is the number
 * of ranks), exchanges its first and last rows with its neighbours
 * (MPI_Sendrecv) before each sweep, and the checksum is reduced to rank 0,
 * which prints the time of the sweeps (the slowest rank's) and the checksum.
 *
 * --verify 1 makes every rank compare its rows with serial sweeps (exit 1 if
 * any differs).
 *
 * usage: mpirun -np P jacobi_mpi [--n N] [--iters I] [--verify 1] */
#include "jacobi_common.h"
#include "twins_common.h"

#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long verify = jacobi_take_verify(&argc, argv);
  jacobi_opts o = jacobi_parse(argc, argv, size);
  if (o.blocks != size) {
    if (rank == 0)
      fprintf(stderr, "jacobi_mpi: --blocks %ld differs from the %d ranks\n",
              o.blocks, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long rows = o.n / size, w = o.n + 2;
  /* rows + 2 halo rows per buffer: [0] north halo, [rows + 1] south. */
  double *buf[2];
  for (int k = 0; k < 2; ++k) {
    size_t bytes = sizeof(double) * (size_t)((rows + 2) * w);
    buf[k] = twin_malloc("jacobi_mpi", bytes);
    memset(buf[k], 0, bytes);
    if (rank == 0)
      for (long j = 0; j < w; ++j)
        buf[k][j] = 1.0; /* the hot top edge */
  }
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = jacobi_now();
  for (long it = 0; it < o.iters; ++it) {
    double *s = buf[it % 2], *d = buf[(it + 1) % 2];
    MPI_Sendrecv(s + w, (int)w, MPI_DOUBLE, up, 0, s + (rows + 1) * w, (int)w,
                 MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(s + rows * w, (int)w, MPI_DOUBLE, down, 1, s, (int)w,
                 MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    jacobi_rows(d + w, s + w, s, s + (rows + 1) * w, rows, o.n);
  }
  double t = jacobi_now() - t0, tmax;
  double part = jacobi_checksum(buf[o.iters % 2] + w, rows, o.n, rank * rows);
  double sum = 0;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("jacobi_mpi n=%ld iters=%ld ranks=%d time_s=%.6f checksum=%.17g\n",
           o.n, o.iters, size, tmax, sum);
  int bad = 0, anybad = 0;
  if (verify) {
    /* this rank's rows against the serial sweeps, bit for bit */
    double *g = jacobi_serial(o.n, o.iters);
    bad = memcmp(g + (1 + rank * rows) * w, buf[o.iters % 2] + w,
                 sizeof(double) * (size_t)(rows * w)) != 0;
    if (bad)
      fprintf(stderr,
              "jacobi_mpi: rank %d's rows differ from the serial "
              "sweeps\n",
              rank);
    free(g);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !anybad)
      printf("verified against the serial sweeps\n");
  }
  MPI_Finalize();
  return anybad;
}
