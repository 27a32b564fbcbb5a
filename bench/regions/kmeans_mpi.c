/* k-means as a plain MPI program (kmeans_common.h), the twin of
 * kmeans_regions.c with the same tiles: rank k owns regions / ranks groups
 * of tiles (regions must be a multiple of the ranks). Per iteration it
 * assigns the points of each of its tiles, adds the tiles' sums and counts
 * in tile order, reduces them over all ranks (MPI_Allreduce: the region
 * version's two reduction levels and its copy of the centres to every
 * group) and computes the centres. Rank 0 prints the time (the slowest
 * rank's) and the checksum of the centres; --verify 1 makes every rank
 * compare the centres and its points' memberships with the serial
 * clustering (exit 1 if any differs).
 *
 * usage: mpirun -np P kmeans_mpi [--points N] [--clusters K] [--regions R]
 *                                [--tiles T] [--iters I] [--verify 1] */
#include "kmeans_common.h"

#include <mpi.h>

static const char *prog = "kmeans_mpi";

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  kmeans_opts o = kmeans_parse(prog, argc, argv);
  if (o.regions % size) {
    if (rank == 0)
      fprintf(stderr, "%s: --regions %ld is not a multiple of the %d ranks\n",
              prog, o.regions, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long k = o.clusters, s = o.s;
  long tiles = o.regions / size * o.tiles; /* this rank's */
  long first = rank * tiles * s;           /* its first point */
  long kd = k * KMEANS_DIM;
  double *pts =
      twin_malloc(prog, sizeof(double) * (size_t)(tiles * s * KMEANS_DIM));
  int *member = twin_malloc(prog, sizeof(int) * (size_t)(tiles * s));
  double *ctr = twin_malloc(prog, sizeof(double) * (size_t)kd);
  /* tile sums and counts, the rank's and the global ones (counts as
   * doubles, to reduce them with the sums in one call: exact below 2^53) */
  double *tsum = twin_malloc(prog, sizeof(double) * (size_t)kd);
  long *tcnt = twin_malloc(prog, sizeof(long) * (size_t)k);
  double *mine = twin_malloc(prog, sizeof(double) * (size_t)(kd + k));
  double *all = twin_malloc(prog, sizeof(double) * (size_t)(kd + k));
  long *cnt = twin_malloc(prog, sizeof(long) * (size_t)k);
  kmeans_fill(pts, first, tiles * s);
  kmeans_start_centres(ctr, k);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = twin_now();
  for (long it = 0; it < o.iters; ++it) {
    memset(mine, 0, sizeof(double) * (size_t)(kd + k));
    for (long t = 0; t < tiles; ++t) {
      kmeans_tile(pts + t * s * KMEANS_DIM, s, ctr, k, member + t * s, tsum,
                  tcnt);
      for (long j = 0; j < kd; ++j)
        mine[j] += tsum[j];
      for (long j = 0; j < k; ++j)
        mine[kd + j] += (double)tcnt[j];
    }
    MPI_Allreduce(mine, all, (int)(kd + k), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    for (long j = 0; j < k; ++j)
      cnt[j] = (long)all[kd + j];
    kmeans_centres(ctr, all, cnt, k);
  }
  double el = twin_now() - t0, tmax;
  MPI_Reduce(&el, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("kmeans_mpi points=%ld clusters=%ld regions=%ld tiles=%ld "
           "iters=%ld ranks=%d time_s=%.6f checksum=%.17g\n",
           o.points, k, o.regions, o.tiles, o.iters, size, tmax,
           kmeans_checksum(ctr, k));
  int bad = 0, anybad = 0;
  if (o.verify) {
    int *smember;
    double *serial = kmeans_serial(prog, &o, &smember);
    bad = kmeans_check_centres(prog, ctr, serial, k) ||
          kmeans_check_members(prog, member, smember, first, tiles * s);
    free(serial);
    free(smember);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !anybad)
      printf("verified against the serial clustering\n");
  }
  MPI_Finalize();
  return anybad;
}
