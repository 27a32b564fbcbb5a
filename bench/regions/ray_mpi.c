/* Raytracing as a plain MPI program (ray_common.h), the twin of
 * ray_regions.c with the same tiles of lines: rank k renders the lines of
 * regions / ranks consecutive regions (regions must be a multiple of the
 * ranks), tile by tile. Rank 0 prints the time (the slowest rank's) and
 * the checksum (reduced); --verify 1 makes every rank compare its lines
 * with a serial rendering (exit 1 if any differs).
 *
 * usage: mpirun -np P ray_mpi [--width W] [--height H] [--regions R]
 *                             [--tiles T] [--verify 1] */
#include "ray_common.h"

#include <mpi.h>

static const char *prog = "ray_mpi";

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ray_opts o = ray_parse(prog, argc, argv);
  if (o.regions % size) {
    if (rank == 0)
      fprintf(stderr, "%s: --regions %ld is not a multiple of the %d ranks\n",
              prog, o.regions, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long tiles = o.regions / size * o.tiles, lines = tiles * o.lines;
  long first = rank * lines;
  uint32_t *px =
      twin_malloc(prog, sizeof(uint32_t) * (size_t)(lines * o.width));
  memset(px, 0, sizeof(uint32_t) * (size_t)(lines * o.width));
  ray_scene sc;
  ray_load_scene(&sc);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = twin_now();
  for (long k = 0; k < tiles; ++k)
    for (long y = 0; y < o.lines; ++y)
      ray_line(&sc, o.width, o.height, first + k * o.lines + y,
               px + (k * o.lines + y) * o.width);
  double el = twin_now() - t0, tmax;
  unsigned long long part = ray_checksum(px, o.width, lines, first), sum = 0;
  MPI_Reduce(&el, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&part, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
             MPI_COMM_WORLD);
  if (rank == 0)
    printf("ray_mpi width=%ld height=%ld regions=%ld tiles=%ld ranks=%d "
           "time_s=%.6f checksum=%llu\n",
           o.width, o.height, o.regions, o.tiles, size, tmax, sum);
  int bad = 0, anybad = 0;
  if (o.verify) {
    bad = ray_check(prog, &sc, px, o.width, o.height, first, lines);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !anybad)
      printf("verified against the serial rendering\n");
  }
  MPI_Finalize();
  return anybad;
}
