/* k-means with weft regions (kmeans_common.h), after Myrmics'
 * bench/kmeans_myrmics.c, with its two kinds of regions: under a top
 * region of points, one region per group of tiles holding the tiles' points
 * and memberships (objects); under a top reduction region, one region per
 * group holding each tile's partial sums and counts and the group's copy of
 * the centres. Per iteration, one task per group (inout on its two regions)
 * spawns one task per tile (in on the points and the centres' copy, inout
 * on the membership, sums and counts) and then a task inout on the group's
 * reduction region that adds the tiles' sums into the first tile's; a task
 * inout on the top reduction region then adds the groups' sums, computes
 * the centres and copies them into every group's region.
 *
 * usage: kmeans_regions [--points N] [--clusters K] [--regions R]
 *                       [--tiles T] [--iters I] [--verify 1]
 *        (threads: WEFT_NUM_THREADS) */
#include "kmeans_common.h"

#include "regions_twin.h"

static const char *prog = "kmeans_regions";
static kmeans_opts g_o;

/* The objects of one group's two regions (tables of tile objects). */
typedef struct group {
  weft_rid pts_reg, red_reg;
  double **pts; /* [tile] s x 3 */
  int **member; /* [tile] s */
  double **sum; /* [tile] k x 3 */
  long **cnt;   /* [tile] k */
  double *ctr;  /* the centres' copy, k x 3 */
} group;

static void *alloc_in(size_t bytes, weft_rid r) {
  void *p = weft_alloc(bytes, r);
  if (!p)
    twin_fail(prog, "weft_alloc");
  return p;
}

/* args: points, centres, membership, sums, counts. */
static void tile_task(void **args) {
  kmeans_tile(args[0], g_o.s, args[1], g_o.clusters, args[2], args[3], args[4]);
}

/* args: the reduction region, the group (SAFE). */
static void reduce_tiles_task(void **args) {
  group *g = args[1];
  for (long t = 1; t < g_o.tiles; ++t)
    kmeans_add(g->sum[0], g->cnt[0], g->sum[t], g->cnt[t], g_o.clusters);
}

/* args: the points region, the reduction region, the group (SAFE). */
static void group_task(void **args) {
  group *g = args[2];
  int types[5] = {WEFT_ARG_IN, WEFT_ARG_IN, WEFT_ARG_OUT, WEFT_ARG_OUT,
                  WEFT_ARG_OUT};
  for (long t = 0; t < g_o.tiles; ++t) {
    void *a[5] = {g->pts[t], g->ctr, g->member[t], g->sum[t], g->cnt[t]};
    if (weft_rspawn(tile_task, 5, a, types) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (tile)");
  }
  void *a[2] = {rid_arg(g->red_reg), g};
  int rtypes[2] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  if (weft_rspawn(reduce_tiles_task, 2, a, rtypes) != WEFT_OK)
    twin_fail(prog, "weft_rspawn (reduce tiles)");
}

/* args: the top reduction region, the table of groups (SAFE). */
static void reduce_task(void **args) {
  group **gs = args[1];
  long k = g_o.clusters;
  for (long i = 1; i < g_o.regions; ++i)
    kmeans_add(gs[0]->sum[0], gs[0]->cnt[0], gs[i]->sum[0], gs[i]->cnt[0], k);
  kmeans_centres(gs[0]->ctr, gs[0]->sum[0], gs[0]->cnt[0], k);
  for (long i = 1; i < g_o.regions; ++i)
    memcpy(gs[i]->ctr, gs[0]->ctr, sizeof(double) * (size_t)(k * KMEANS_DIM));
}

int main(int argc, char **argv) {
  g_o = kmeans_parse(prog, argc, argv);
  long r = g_o.regions, t = g_o.tiles, s = g_o.s, k = g_o.clusters;
  weft_rid top_pts = weft_ralloc(WEFT_ROOT_REGION, 1);
  weft_rid top_red = weft_ralloc(WEFT_ROOT_REGION, 1);
  if (!top_pts || !top_red)
    twin_fail(prog, "weft_ralloc");
  /* The table of groups in the top reduction region, each group's record
   * in its own reduction region (the tasks touch only what they hold). */
  group **gs = alloc_in(sizeof(group *) * (size_t)r, top_red);
  for (long i = 0; i < r; ++i) {
    weft_rid pts_reg = weft_ralloc(top_pts, 2);
    weft_rid red_reg = weft_ralloc(top_red, 2);
    if (!pts_reg || !red_reg)
      twin_fail(prog, "weft_ralloc");
    group *g = gs[i] = alloc_in(sizeof(group), red_reg);
    g->pts_reg = pts_reg;
    g->red_reg = red_reg;
    g->pts = alloc_in(sizeof(double *) * (size_t)t, g->pts_reg);
    g->member = alloc_in(sizeof(int *) * (size_t)t, g->pts_reg);
    g->sum = alloc_in(sizeof(double *) * (size_t)t, g->red_reg);
    g->cnt = alloc_in(sizeof(long *) * (size_t)t, g->red_reg);
    if (weft_balloc(sizeof(double) * (size_t)(s * KMEANS_DIM), g->pts_reg,
                    (int)t, (void **)g->pts) != WEFT_OK ||
        weft_balloc(sizeof(int) * (size_t)s, g->pts_reg, (int)t,
                    (void **)g->member) != WEFT_OK ||
        weft_balloc(sizeof(double) * (size_t)(k * KMEANS_DIM), g->red_reg,
                    (int)t, (void **)g->sum) != WEFT_OK ||
        weft_balloc(sizeof(long) * (size_t)k, g->red_reg, (int)t,
                    (void **)g->cnt) != WEFT_OK)
      twin_fail(prog, "weft_balloc");
    g->ctr = alloc_in(sizeof(double) * (size_t)(k * KMEANS_DIM), g->red_reg);
    kmeans_start_centres(g->ctr, k);
    for (long j = 0; j < t; ++j)
      kmeans_fill(g->pts[j], (i * t + j) * s, s);
  }
  twin_timed_begin(prog);
  double t0 = twin_now();
  int gtypes[3] = {WEFT_ARG_INOUT | WEFT_ARG_REGION,
                   WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  int rtypes[2] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  for (long it = 0; it < g_o.iters; ++it) {
    for (long i = 0; i < r; ++i) {
      void *a[3] = {rid_arg(gs[i]->pts_reg), rid_arg(gs[i]->red_reg), gs[i]};
      if (weft_rspawn(group_task, 3, a, gtypes) != WEFT_OK)
        twin_fail(prog, "weft_rspawn (group)");
    }
    void *a[2] = {rid_arg(top_red), gs};
    if (weft_rspawn(reduce_task, 2, a, rtypes) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (reduce)");
  }
  twin_wait_all(prog);
  double t1 = twin_now();
  twin_timed_end(prog);
  printf("kmeans_regions points=%ld clusters=%ld regions=%ld tiles=%ld "
         "iters=%ld threads=%d time_s=%.6f checksum=%.17g\n",
         g_o.points, k, r, t, g_o.iters, weft_num_threads(), t1 - t0,
         kmeans_checksum(gs[0]->ctr, k));
  if (g_o.verify) {
    int *member;
    double *serial = kmeans_serial(prog, &g_o, &member);
    if (kmeans_check_centres(prog, gs[0]->ctr, serial, k))
      return 1;
    for (long i = 0; i < r; ++i)
      for (long j = 0; j < t; ++j)
        if (kmeans_check_members(prog, gs[i]->member[j], member,
                                 (i * t + j) * s, s))
          return 1;
    free(serial);
    free(member);
    printf("verified against the serial clustering\n");
  }
  return 0;
}
