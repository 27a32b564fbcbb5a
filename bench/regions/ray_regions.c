/* Raytracing with weft regions (ray_common.h), after Myrmics'
 * bench/cray_myrmics.c: the frame is split into regions of tiles of
 * consecutive lines (objects, made by one weft_balloc), and each region
 * holds its own copy of the scene. One task per region (inout on it)
 * spawns one task per tile (inout on the tile, in on the region's scene).
 * The main program then waits for the root region.
 *
 * usage: ray_regions [--width W] [--height H] [--regions R] [--tiles T]
 *                    [--verify 1]   (threads: WEFT_NUM_THREADS) */
#include "ray_common.h"

#include "regions_twin.h"

static const char *prog = "ray_regions";
static ray_opts g_o;

/* args: the tile, the scene, its first line (SAFE). */
static void tile_task(void **args) {
  uint32_t *px = args[0];
  long first = (long)(intptr_t)args[2];
  for (long y = 0; y < g_o.lines; ++y)
    ray_line(args[1], g_o.width, g_o.height, first + y, px + y * g_o.width);
}

/* args: the region, its tile table, its scene, its first tile (SAFE). */
static void region_task(void **args) {
  uint32_t **tiles = args[1];
  long first = (long)(intptr_t)args[3];
  int types[3] = {WEFT_ARG_OUT, WEFT_ARG_IN, WEFT_ARG_SAFE};
  for (long k = 0; k < g_o.tiles; ++k) {
    void *a[3] = {tiles[k], args[2], long_arg((first + k) * g_o.lines)};
    if (weft_rspawn(tile_task, 3, a, types) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (tile)");
  }
}

int main(int argc, char **argv) {
  g_o = ray_parse(prog, argc, argv);
  long r = g_o.regions, t = g_o.tiles;
  size_t tile_bytes = sizeof(uint32_t) * (size_t)(g_o.lines * g_o.width);
  weft_rid *rid = twin_malloc(prog, sizeof(weft_rid) * (size_t)r);
  uint32_t ***tab = twin_malloc(prog, sizeof(uint32_t **) * (size_t)r);
  ray_scene **scene = twin_malloc(prog, sizeof(ray_scene *) * (size_t)r);
  for (long i = 0; i < r; ++i) {
    rid[i] = weft_ralloc(WEFT_ROOT_REGION, 1);
    if (!rid[i])
      twin_fail(prog, "weft_ralloc");
    tab[i] = weft_alloc(sizeof(uint32_t *) * (size_t)t, rid[i]);
    scene[i] = weft_alloc(sizeof(ray_scene), rid[i]);
    if (!tab[i] || !scene[i] ||
        weft_balloc(tile_bytes, rid[i], (int)t, (void **)tab[i]) != WEFT_OK)
      twin_fail(prog, "weft_alloc");
    ray_load_scene(scene[i]);
    for (long k = 0; k < t; ++k)
      memset(tab[i][k], 0, tile_bytes);
  }
  twin_timed_begin(prog);
  double t0 = twin_now();
  int types[4] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE,
                  WEFT_ARG_SAFE, WEFT_ARG_SAFE};
  for (long i = 0; i < r; ++i) {
    void *a[4] = {rid_arg(rid[i]), tab[i], scene[i], long_arg(i * t)};
    if (weft_rspawn(region_task, 4, a, types) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (region)");
  }
  twin_wait_all(prog);
  double t1 = twin_now();
  twin_timed_end(prog);
  uint64_t sum = 0;
  for (long i = 0; i < r; ++i)
    for (long k = 0; k < t; ++k)
      sum += ray_checksum(tab[i][k], g_o.width, g_o.lines,
                          (i * t + k) * g_o.lines);
  printf("ray_regions width=%ld height=%ld regions=%ld tiles=%ld threads=%d "
         "time_s=%.6f checksum=%llu\n",
         g_o.width, g_o.height, r, t, weft_num_threads(), t1 - t0,
         (unsigned long long)sum);
  if (g_o.verify) {
    ray_scene sc;
    ray_load_scene(&sc);
    for (long i = 0; i < r; ++i)
      for (long k = 0; k < t; ++k)
        if (ray_check(prog, &sc, tab[i][k], g_o.width, g_o.height,
                      (i * t + k) * g_o.lines, g_o.lines))
          return 1;
    printf("verified against the serial rendering\n");
  }
  return 0;
}
