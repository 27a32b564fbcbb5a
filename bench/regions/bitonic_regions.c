/* Bitonic sort with weft regions (bitonic_common.h), after Myrmics'
 * bench/bitonic_myrmics.c: two buffers, each split into `regions` regions
 * of tiles / regions tiles (objects, made by one weft_balloc, with the
 * table of their addresses). First one task per region (inout on it)
 * spawns one sort task per tile (inout on the tile). Then, per stage of
 * the network and per region i, one task in on the source buffer's regions
 * i and its partner's (the same region while mask2 is below the tiles per
 * region) and inout on the destination buffer's region i spawns one merge
 * task per tile (in on the two source tiles, inout on the destination
 * tile). Myrmics copies the partner region into a temporary one first, its
 * transfer on a machine without coherent caches; here the merges read it
 * in place.
 *
 * usage: bitonic_regions [--n N] [--regions R] [--tiles T] [--verify 1]
 *        (threads: WEFT_NUM_THREADS) */
#include "bitonic_common.h"

#include "regions_twin.h"

static const char *prog = "bitonic_regions";
static long g_s, g_per; /* keys per tile, tiles per region */

/* args: the tile. */
static void sort_task(void **args) { bitonic_tile_sort(args[0], g_s); }

/* args: the region, its tile table (SAFE). */
static void sort_region_task(void **args) {
  bitonic_key **tiles = args[1];
  int types[1] = {WEFT_ARG_INOUT};
  for (long k = 0; k < g_per; ++k) {
    void *a[1] = {tiles[k]};
    if (weft_rspawn(sort_task, 1, a, types) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (sort)");
  }
}

/* args: destination tile, source tile, partner tile, low (SAFE). */
static void merge_task(void **args) {
  bitonic_merge(args[0], args[1], args[2], g_s, (int)(intptr_t)args[3]);
}

/* args: destination region, source region, partner region (SAFE when it is
 * the source region), their tile tables, the region's index, mask, mask2
 * (SAFE). */
static void merge_region_task(void **args) {
  bitonic_key **dst = args[3], **src = args[4], **par = args[5];
  long i = (long)(intptr_t)args[6], mask = (long)(intptr_t)args[7],
       mask2 = (long)(intptr_t)args[8];
  int types[4] = {WEFT_ARG_INOUT, WEFT_ARG_IN, WEFT_ARG_IN, WEFT_ARG_SAFE};
  for (long k = 0; k < g_per; ++k) {
    long t = i * g_per + k;
    long pk = (t ^ mask2) % g_per;
    void *a[4] = {dst[k], src[k], par[pk],
                  long_arg(bitonic_keeps_low(t, mask, mask2))};
    if (weft_rspawn(merge_task, 4, a, types) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (merge)");
  }
}

int main(int argc, char **argv) {
  bitonic_opts o = bitonic_parse(prog, argc, argv);
  long r = o.regions;
  g_s = o.s;
  g_per = o.tiles / r;
  size_t tile_bytes = sizeof(bitonic_key) * (size_t)o.s;
  weft_rid *rid[2];
  bitonic_key ***tab[2];
  for (int w = 0; w < 2; ++w) {
    rid[w] = twin_malloc(prog, sizeof(weft_rid) * (size_t)r);
    tab[w] = twin_malloc(prog, sizeof(bitonic_key **) * (size_t)r);
    for (long i = 0; i < r; ++i) {
      rid[w][i] = weft_ralloc(WEFT_ROOT_REGION, 1);
      if (!rid[w][i])
        twin_fail(prog, "weft_ralloc");
      tab[w][i] = weft_alloc(sizeof(bitonic_key *) * (size_t)g_per, rid[w][i]);
      if (!tab[w][i] || weft_balloc(tile_bytes, rid[w][i], (int)g_per,
                                    (void **)tab[w][i]) != WEFT_OK)
        twin_fail(prog, "weft_alloc");
      for (long k = 0; k < g_per; ++k)
        for (long e = 0; e < o.s; ++e)
          tab[w][i][k][e] =
              w == 0 ? bitonic_input((i * g_per + k) * o.s + e) : 0;
    }
  }
  twin_timed_begin(prog);
  double t0 = twin_now();
  int stypes[2] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  for (long i = 0; i < r; ++i) {
    void *a[2] = {rid_arg(rid[0][i]), tab[0][i]};
    if (weft_rspawn(sort_region_task, 2, a, stypes) != WEFT_OK)
      twin_fail(prog, "weft_rspawn (sort region)");
  }
  int cur = 0;
  for (long mask = 2; mask <= o.tiles; mask <<= 1)
    for (long mask2 = mask >> 1; mask2; mask2 >>= 1) {
      for (long i = 0; i < r; ++i) {
        long pi = mask2 < g_per ? i : i ^ (mask2 / g_per);
        void *a[9] = {rid_arg(rid[1 - cur][i]),
                      rid_arg(rid[cur][i]),
                      rid_arg(rid[cur][pi]),
                      tab[1 - cur][i],
                      tab[cur][i],
                      tab[cur][pi],
                      long_arg(i),
                      long_arg(mask),
                      long_arg(mask2)};
        int types[9] = {WEFT_ARG_INOUT | WEFT_ARG_REGION,
                        WEFT_ARG_IN | WEFT_ARG_REGION,
                        pi != i ? WEFT_ARG_IN | WEFT_ARG_REGION : WEFT_ARG_SAFE,
                        WEFT_ARG_SAFE,
                        WEFT_ARG_SAFE,
                        WEFT_ARG_SAFE,
                        WEFT_ARG_SAFE,
                        WEFT_ARG_SAFE,
                        WEFT_ARG_SAFE};
        if (weft_rspawn(merge_region_task, 9, a, types) != WEFT_OK)
          twin_fail(prog, "weft_rspawn (merge region)");
      }
      cur = 1 - cur;
    }
  twin_wait_all(prog);
  double t1 = twin_now();
  twin_timed_end(prog);
  uint64_t sum = 0;
  for (long i = 0; i < r; ++i)
    for (long k = 0; k < g_per; ++k)
      sum += bitonic_checksum(tab[cur][i][k], o.s, (i * g_per + k) * o.s);
  printf("bitonic_regions n=%ld regions=%ld tiles=%ld threads=%d time_s=%.6f "
         "checksum=%llu\n",
         o.n, r, o.tiles, weft_num_threads(), t1 - t0, (unsigned long long)sum);
  if (o.verify) {
    bitonic_key *serial = bitonic_serial(prog, o.n);
    for (long i = 0; i < r; ++i)
      for (long k = 0; k < g_per; ++k)
        if (bitonic_check_tile(prog, tab[cur][i][k], serial, o.s,
                               i * g_per + k))
          return 1;
    free(serial);
    printf("verified against the serial sort\n");
  }
  return 0;
}
