/* Barnes-Hut as a plain MPI program (barnes_common.h), the twin of
 * barnes_regions.c with the same partitions and trees: rank k owns
 * regions / ranks consecutive partitions (regions must be a multiple of the
 * ranks). Each step it builds the octrees of its partitions (bh_build, from
 * a pool), sends them to every rank (child pointers turned into indices,
 * MPI_Allgatherv of the node arrays), moves its bodies by the pull of all
 * trees (bh_move) and drops the trees. Rank 0 prints the time (the slowest
 * rank's) and the checksum (an integer sum, reduced); --verify 1 makes every
 * rank compare its bodies with the serial steps (exit 1 if any differs).
 *
 * usage: mpirun -np P barnes_mpi [--bodies N] [--regions R] [--steps S]
 *                                [--verify 1] */
#include "barnes_common.h"

#include <mpi.h>

static const char *prog = "barnes_mpi";

/* Child pointers of the nodes [0, n) into indices + 1 (0: none) relative
 * to base, and back. */
static void to_index(bh_node *nodes, long n, const bh_node *base) {
  for (long k = 0; k < n; ++k)
    for (int o = 0; o < 8; ++o) {
      uintptr_t v =
          nodes[k].child[o] ? (uintptr_t)(nodes[k].child[o] - base) + 1 : 0;
      nodes[k].child[o] = (bh_node *)v;
    }
}
static void to_pointer(bh_node *nodes, long n, bh_node *base) {
  for (long k = 0; k < n; ++k)
    for (int o = 0; o < 8; ++o) {
      uintptr_t v = (uintptr_t)nodes[k].child[o];
      nodes[k].child[o] = v ? base + (v - 1) : NULL;
    }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  barnes_opts o = barnes_parse(prog, argc, argv);
  if (o.regions % size) {
    if (rank == 0)
      fprintf(stderr, "%s: --regions %ld is not a multiple of the %d ranks\n",
              prog, o.regions, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long parts = o.regions / size, count = parts * o.per;
  long first = rank * count;
  bh_body *mine = twin_malloc(prog, sizeof(bh_body) * (size_t)count);
  for (long k = 0; k < count; ++k)
    bh_init_body(&mine[k], first + k);
  long cap = 4 * count;
  bh_pool pool = {twin_malloc(prog, sizeof(bh_node) * (size_t)cap), 0, cap};
  bh_node *all = twin_malloc(prog, sizeof(bh_node) * (size_t)(cap * size));
  bh_node **trees = twin_malloc(prog, sizeof(bh_node *) * (size_t)o.regions);
  long *roots = twin_malloc(prog, sizeof(long) * (size_t)o.regions);
  long *myroots = twin_malloc(prog, sizeof(long) * (size_t)parts);
  int *bytes = twin_malloc(prog, sizeof(int) * (size_t)size);
  int *displ = twin_malloc(prog, sizeof(int) * (size_t)size);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = twin_now();
  for (long s = 0; s < o.steps; ++s) {
    pool.used = 0;
    for (long p = 0; p < parts; ++p)
      myroots[p] = bh_build(mine + p * o.per, o.per, first + p * o.per,
                            bh_pool_alloc, &pool) -
                   pool.nodes;
    to_index(pool.nodes, pool.used, pool.nodes);
    int mybytes = (int)(pool.used * (long)sizeof(bh_node));
    MPI_Allgather(&mybytes, 1, MPI_INT, bytes, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(myroots, (int)parts, MPI_LONG, roots, (int)parts, MPI_LONG,
                  MPI_COMM_WORLD);
    for (int k = 0, at = 0; k < size; ++k) {
      displ[k] = at;
      at += bytes[k];
    }
    MPI_Allgatherv(pool.nodes, mybytes, MPI_BYTE, all, bytes, displ, MPI_BYTE,
                   MPI_COMM_WORLD);
    for (int k = 0; k < size; ++k) {
      bh_node *base = (bh_node *)((char *)all + displ[k]);
      to_pointer(base, bytes[k] / (long)sizeof(bh_node), base);
      for (long p = 0; p < parts; ++p)
        trees[k * parts + p] = base + roots[k * parts + p];
    }
    bh_move(mine, count, first, trees, o.regions, mine);
  }
  double el = twin_now() - t0, tmax;
  unsigned long long part = bh_checksum(mine, count), sum = 0;
  MPI_Reduce(&el, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&part, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
             MPI_COMM_WORLD);
  if (rank == 0)
    printf("barnes_mpi bodies=%ld regions=%ld steps=%ld ranks=%d time_s=%.6f "
           "checksum=%llu\n",
           o.bodies, o.regions, o.steps, size, tmax, sum);
  int bad = 0, anybad = 0;
  if (o.verify) {
    bh_body *serial = bh_serial(prog, &o);
    bad = bh_check(prog, mine, serial, first, count);
    free(serial);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !anybad)
      printf("verified against the serial steps\n");
  }
  MPI_Finalize();
  return anybad;
}
