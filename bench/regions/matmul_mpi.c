/* Matrix multiplication as a plain MPI program (matmul_common.h), the twin
 * of matmul_regions.c with the same tiles, pieces and phases: rank k owns
 * the region rows i with i % ranks == k of A, B and C (regions must be a
 * multiple of the ranks). In region phase q the owner of B's region row q
 * broadcasts it (MPI_Bcast); every rank then adds, for each of its C pieces
 * (i, j), phase by phase inside the piece, A(i, q)'s tiles times B(q, j)'s
 * to C's tiles, in the region version's order. Myrmics' MPI twin needs
 * ranks = tiles squared (a 2D grid); the 1D split of region rows here runs
 * at 1 and 2 ranks. Rank 0 prints the time (the slowest rank's) and the
 * checksum (exact, so equal to the region version's); --verify 1 makes
 * every rank compare its tiles with the serial product (exit 1 if any
 * differs).
 *
 * usage: mpirun -np P matmul_mpi [--n N] [--regions R] [--tiles T]
 *                                [--verify 1] */
#include "matmul_common.h"

#include <mpi.h>

static const char *prog = "matmul_mpi";

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  matmul_opts o = matmul_parse(prog, argc, argv);
  long r = o.regions, t = o.tiles, b = o.b;
  if (r % size) {
    if (rank == 0)
      fprintf(stderr, "%s: --regions %ld is not a multiple of the %d ranks\n",
              prog, r, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long mine = r / size; /* region rows of this rank */
  long tt = t * t, bb = b * b;
  long row_elems = r * tt * bb; /* one region row: r pieces of tt tiles */
  /* [local row][region col][tile][element] */
  double *m[3], *bcast = twin_malloc(prog, sizeof(double) * (size_t)row_elems);
  for (int w = 0; w < 3; ++w) {
    m[w] = twin_malloc(prog, sizeof(double) * (size_t)(mine * row_elems));
    for (long li = 0; li < mine; ++li)
      for (long j = 0; j < r; ++j)
        for (long k = 0; k < tt; ++k) {
          double *tile = m[w] + li * row_elems + (j * tt + k) * bb;
          long ti = (li * size + rank) * t + k / t, tj = j * t + k % t;
          if (w < 2)
            matmul_fill_tile(tile, w, o.n, b, ti, tj);
          else
            memset(tile, 0, sizeof(double) * (size_t)bb);
        }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = twin_now(), c0 = twin_cpu_now();
  for (long q = 0; q < r; ++q) {
    int owner = (int)(q % size);
    double *brow = bcast;
    if (owner == rank)
      brow = m[1] + (q / size) * row_elems;
    if (size > 1)
      MPI_Bcast(brow, (int)row_elems, MPI_DOUBLE, owner, MPI_COMM_WORLD);
    for (long li = 0; li < mine; ++li) {
      const double *apiece = m[0] + li * row_elems + q * tt * bb;
      for (long j = 0; j < r; ++j) {
        const double *bpiece = brow + j * tt * bb;
        double *cpiece = m[2] + li * row_elems + j * tt * bb;
        for (long p = 0; p < t; ++p)
          for (long i = 0; i < t; ++i)
            for (long jj = 0; jj < t; ++jj)
              matmul_tile(cpiece + (i * t + jj) * bb, apiece + (i * t + p) * bb,
                          bpiece + (p * t + jj) * bb, b);
      }
    }
  }
  double el = twin_now() - t0, tmax;
  double cpu = twin_cpu_now() - c0, cpu_all; /* summed over the ranks */
  double part = 0, sum = 0;
  for (long li = 0; li < mine; ++li)
    for (long j = 0; j < r; ++j)
      for (long k = 0; k < tt; ++k)
        part +=
            matmul_tile_checksum(m[2] + li * row_elems + (j * tt + k) * bb, b,
                                 (li * size + rank) * t + k / t, j * t + k % t);
  MPI_Reduce(&el, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&cpu, &cpu_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("matmul_mpi n=%ld regions=%ld tiles=%ld ranks=%d time_s=%.6f "
           "checksum=%.17g cpu_s=%.6f\n",
           o.n, r, t, size, tmax, sum, cpu_all);
  int bad = 0, anybad = 0;
  if (o.verify) {
    double *serial = matmul_serial(prog, o.n);
    for (long li = 0; li < mine && !bad; ++li)
      for (long j = 0; j < r && !bad; ++j)
        for (long k = 0; k < tt && !bad; ++k)
          bad = matmul_check_tile(
              prog, m[2] + li * row_elems + (j * tt + k) * bb, serial, o.n, b,
              (li * size + rank) * t + k / t, j * t + k % t);
    free(serial);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !anybad)
      printf("verified against the serial product\n");
  }
  MPI_Finalize();
  return anybad;
}
