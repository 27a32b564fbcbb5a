/* Allocation throughput of the region allocator (issue 12, page trading):
 * per round, one task per region (inout on it, so the regions' tasks run
 * at once) allocates --objects objects of 16-1024 bytes in its region and
 * frees them all again, so that whole pages empty and go back to the
 * pools. Regions are made with level hint 2, so under WEFT_SCHEDULERS=1x2x2
 * they spread over the leaf schedulers. Prints the time per
 * weft_alloc + weft_free pair (wall and CPU, all threads).
 *
 * usage: alloc_regions [--regions R] [--objects N] [--rounds K]
 *        (threads: WEFT_NUM_THREADS) */
#include "twins_common.h"

#include "regions_twin.h"

static const char *prog = "alloc_regions";
static long g_objects;

/* args: the region, its pointer table (SAFE). */
static void churn(void **args) {
  weft_rid r = (weft_rid)(uintptr_t)args[0];
  void **ptrs = args[1];
  uint64_t h = (uint64_t)r;
  for (long i = 0; i < g_objects; ++i) {
    h = twin_hash(h);
    ptrs[i] = weft_alloc(16 + (size_t)(h % 1009), r);
    if (!ptrs[i])
      twin_fail(prog, "weft_alloc");
  }
  for (long i = 0; i < g_objects; ++i)
    if (weft_free(ptrs[i]) != WEFT_OK)
      twin_fail(prog, "weft_free");
}

int main(int argc, char **argv) {
  long regions = 4, objects = 20000, rounds = 10, verify = 0;
  twin_opt opts[] = {{"--regions", &regions},
                     {"--objects", &objects},
                     {"--rounds", &rounds},
                     {"--verify", &verify}};
  twin_parse(prog, argc, argv, opts, 4);
  g_objects = objects;
  weft_rid *rid = twin_malloc(prog, sizeof(weft_rid) * (size_t)regions);
  void ***tab = twin_malloc(prog, sizeof(void **) * (size_t)regions);
  for (long q = 0; q < regions; ++q) {
    rid[q] = weft_ralloc(WEFT_ROOT_REGION, 2);
    tab[q] = twin_malloc(prog, sizeof(void *) * (size_t)objects);
    if (!rid[q])
      twin_fail(prog, "weft_ralloc");
  }
  int types[2] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  double t0 = twin_now(), c0 = twin_cpu_now();
  for (long k = 0; k < rounds; ++k) {
    for (long q = 0; q < regions; ++q) {
      void *args[2] = {rid_arg(rid[q]), tab[q]};
      if (weft_rspawn(churn, 2, args, types) != WEFT_OK)
        twin_fail(prog, "weft_rspawn");
    }
    twin_wait_all(prog);
  }
  double t1 = twin_now(), c1 = twin_cpu_now();
  double pairs = (double)(rounds * regions * objects);
  for (long q = 0; q < regions; ++q)
    if (weft_rfree(rid[q]) != WEFT_OK)
      twin_fail(prog, "weft_rfree");
  printf("alloc_regions regions=%ld objects=%ld rounds=%ld threads=%d "
         "time_s=%.6f ns_per_pair=%.1f cpu_ns_per_pair=%.1f\n",
         regions, objects, rounds, weft_num_threads(), t1 - t0,
         1e9 * (t1 - t0) / pairs, 1e9 * (c1 - c0) / pairs);
  return 0;
}
