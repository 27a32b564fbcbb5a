/* Bitonic sort as a plain MPI program (bitonic_common.h), the twin of
 * bitonic_regions.c with the same tiles and merges: rank k owns tiles
 * [k * tiles / ranks, (k + 1) * tiles / ranks) (the region version's
 * regions, when regions = ranks). It sorts each of its tiles, then, per
 * stage, merges each tile with its partner into the other buffer; when the
 * partners lie on another rank (mask2 at least the tiles per rank) it first
 * swaps all its source tiles with that rank (one MPI_Sendrecv), the partner
 * of each local tile then sitting at the same place in what arrived. Rank 0
 * prints the time (the slowest rank's) and the checksum; --verify 1 makes
 * every rank compare its tiles with the serially sorted input (exit 1 if
 * any differs).
 *
 * usage: mpirun -np P bitonic_mpi [--n N] [--tiles T] [--verify 1]
 *        (--regions is accepted and ignored) */
#include "bitonic_common.h"

#include <mpi.h>

static const char *prog = "bitonic_mpi";

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bitonic_opts o = bitonic_parse(prog, argc, argv);
  if (!twin_pow2(size) || o.tiles % size) {
    if (rank == 0)
      fprintf(stderr,
              "%s: %d ranks: need a power of two dividing --tiles %ld\n", prog,
              size, o.tiles);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long per = o.tiles / size, s = o.s, first = rank * per;
  size_t bytes = sizeof(bitonic_key) * (size_t)(per * s);
  bitonic_key *buf[2] = {twin_malloc(prog, bytes), twin_malloc(prog, bytes)};
  bitonic_key *peer = twin_malloc(prog, bytes);
  for (long e = 0; e < per * s; ++e)
    buf[0][e] = bitonic_input(first * s + e);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = twin_now();
  for (long k = 0; k < per; ++k)
    bitonic_tile_sort(buf[0] + k * s, s);
  int cur = 0;
  for (long mask = 2; mask <= o.tiles; mask <<= 1)
    for (long mask2 = mask >> 1; mask2; mask2 >>= 1) {
      bitonic_key *src = buf[cur], *dst = buf[1 - cur], *par = src;
      if (mask2 >= per) {
        int other = (int)(rank ^ (mask2 / per));
        MPI_Sendrecv(src, (int)(per * s), MPI_INT32_T, other, 0, peer,
                     (int)(per * s), MPI_INT32_T, other, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        par = peer;
      }
      for (long k = 0; k < per; ++k) {
        long t = first + k;
        long pk = mask2 >= per ? k : (t ^ mask2) - first;
        bitonic_merge(dst + k * s, src + k * s, par + pk * s, s,
                      bitonic_keeps_low(t, mask, mask2));
      }
      cur = 1 - cur;
    }
  double el = twin_now() - t0, tmax;
  unsigned long long part = bitonic_checksum(buf[cur], per * s, first * s),
                     sum = 0;
  MPI_Reduce(&el, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&part, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
             MPI_COMM_WORLD);
  if (rank == 0)
    printf("bitonic_mpi n=%ld tiles=%ld ranks=%d time_s=%.6f checksum=%llu\n",
           o.n, o.tiles, size, tmax, sum);
  int bad = 0, anybad = 0;
  if (o.verify) {
    bitonic_key *serial = bitonic_serial(prog, o.n);
    for (long k = 0; k < per && !bad; ++k)
      bad = bitonic_check_tile(prog, buf[cur] + k * s, serial, s, first + k);
    free(serial);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !anybad)
      printf("verified against the serial sort\n");
  }
  MPI_Finalize();
  return anybad;
}
