/* Barnes-Hut with weft regions (barnes_common.h), after Myrmics'
 * bench/barnes_myrmics.c: the bodies live in a world region, one
 * sub-region per partition. Each step is a task inout on the world region
 * that makes the step's trees region and in it one region per partition,
 * spawns per partition a build task (inout on the partition's tree region,
 * in on its bodies) that allocates the octree's nodes there with
 * weft_alloc, then per partition a move task (in on the whole trees
 * region: every tree; inout on its bodies), waits for the trees region
 * (weft_wait) and frees it with every node (weft_rfree): the paper's
 * per-step octree regions.
 *
 * usage: barnes_regions [--bodies N] [--regions R] [--steps S] [--verify 1]
 *        (threads: WEFT_NUM_THREADS) */
#include "barnes_common.h"

#include "regions_twin.h"

static const char *prog = "barnes_regions";
static barnes_opts g_o;
static bh_body **g_bodies; /* [partition], objects in the partition regions */

static bh_node *region_node(void *ctx) {
  bh_node *n = weft_alloc(sizeof(bh_node), (weft_rid)(uintptr_t)ctx);
  if (!n)
    twin_fail(prog, "weft_alloc (node)");
  memset(n, 0, sizeof *n);
  return n;
}

/* args: the partition's tree region, its bodies, its root slot (an object
 * in the tree region), the partition (SAFE). */
static void build_task(void **args) {
  long i = (long)(intptr_t)args[3];
  *(bh_node **)args[2] =
      bh_build(args[1], g_o.per, i * g_o.per, region_node, args[0]);
}

/* args: the trees region, the partition's bodies, the root slots (SAFE),
 * the partition (SAFE). */
static void move_task(void **args) {
  bh_node ***slots = args[2];
  long i = (long)(intptr_t)args[3];
  bh_node **trees = twin_malloc(prog, sizeof(bh_node *) * (size_t)g_o.regions);
  for (long t = 0; t < g_o.regions; ++t)
    trees[t] = *slots[t];
  bh_move(args[1], g_o.per, i * g_o.per, trees, g_o.regions, args[1]);
  free(trees);
}

/* args: the world region (SAFE copy of its id in args[1]). */
static void step_task(void **args) {
  weft_rid world = (weft_rid)(uintptr_t)args[1];
  long r = g_o.regions;
  weft_rid trees = weft_ralloc(world, 2);
  if (!trees)
    twin_fail(prog, "weft_ralloc (trees)");
  bh_node ***slots = twin_malloc(prog, sizeof(bh_node **) * (size_t)r);
  weft_rid *tree_r = twin_malloc(prog, sizeof(weft_rid) * (size_t)r);
  for (long i = 0; i < r; ++i) {
    tree_r[i] = weft_ralloc(trees, 3);
    if (!tree_r[i] || !(slots[i] = weft_alloc(sizeof(bh_node *), tree_r[i])))
      twin_fail(prog, "weft_ralloc (tree)");
  }
  int btypes[4] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_IN, WEFT_ARG_SAFE,
                   WEFT_ARG_SAFE};
  for (long i = 0; i < r; ++i) {
    void *a[4] = {rid_arg(tree_r[i]), g_bodies[i], slots[i], long_arg(i)};
    if (weft_rspawn(build_task, 4, a, btypes) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (build)");
  }
  int mtypes[4] = {WEFT_ARG_IN | WEFT_ARG_REGION, WEFT_ARG_INOUT, WEFT_ARG_SAFE,
                   WEFT_ARG_SAFE};
  for (long i = 0; i < r; ++i) {
    void *a[4] = {rid_arg(trees), g_bodies[i], slots, long_arg(i)};
    if (weft_rspawn(move_task, 4, a, mtypes) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (move)");
  }
  void *w[1] = {rid_arg(trees)};
  int wt[1] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
  if (weft_wait(w, wt, 1) != WEFT_OK)
    twin_fail(prog, "weft_wait (trees)");
  if (weft_rfree(trees) != WEFT_OK)
    twin_fail(prog, "weft_rfree (trees)");
  free(slots);
  free(tree_r);
}

int main(int argc, char **argv) {
  g_o = barnes_parse(prog, argc, argv);
  long r = g_o.regions;
  weft_rid world = weft_ralloc(WEFT_ROOT_REGION, 1);
  if (!world)
    twin_fail(prog, "weft_ralloc");
  g_bodies = twin_malloc(prog, sizeof(bh_body *) * (size_t)r);
  for (long i = 0; i < r; ++i) {
    weft_rid part = weft_ralloc(world, 2);
    if (!part ||
        !(g_bodies[i] = weft_alloc(sizeof(bh_body) * (size_t)g_o.per, part)))
      twin_fail(prog, "weft_alloc (bodies)");
    for (long k = 0; k < g_o.per; ++k)
      bh_init_body(&g_bodies[i][k], i * g_o.per + k);
  }
  twin_timed_begin(prog);
  double t0 = twin_now();
  int types[2] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  for (long s = 0; s < g_o.steps; ++s) {
    void *a[2] = {rid_arg(world), rid_arg(world)};
    if (weft_rspawn(step_task, 2, a, types) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (step)");
  }
  twin_wait_all(prog);
  double t1 = twin_now();
  twin_timed_end(prog);
  uint64_t sum = 0;
  for (long i = 0; i < r; ++i)
    sum += bh_checksum(g_bodies[i], g_o.per);
  printf("barnes_regions bodies=%ld regions=%ld steps=%ld threads=%d "
         "time_s=%.6f checksum=%llu\n",
         g_o.bodies, r, g_o.steps, weft_num_threads(), t1 - t0,
         (unsigned long long)sum);
  if (g_o.verify) {
    bh_body *serial = bh_serial(prog, &g_o);
    for (long i = 0; i < r; ++i)
      if (bh_check(prog, g_bodies[i], serial, i * g_o.per, g_o.per))
        return 1;
    free(serial);
    printf("verified against the serial steps\n");
  }
  return 0;
}
