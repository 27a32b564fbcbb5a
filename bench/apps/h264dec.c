/* h264dec-style macroblock wavefront (Nexus++ paper, Listing 1): a grid of
 * --width x --height macroblocks per frame, one task per macroblock that
 * reads its west and north-east neighbours and updates itself:
 *
 *   task depend(in: X[r][c-1], X[r-1][c+1]) depend(inout: X[r][c])
 *
 * (neighbours outside the grid read a constant zero cell), so the grid
 * decodes as a diagonal wavefront, and frame f+1's macroblock waits for
 * frame f's. Before creating each row, the creating thread needs a value the
 * previous row's first macroblock produced (as the decoder's parser needs
 * state from the macroblocks already decoded): it waits for it with
 *
 *   --wait on    #pragma omp taskwait depend(in: X[r-1][0])   (the paper's
 *                "taskwait on (*p)"): only that macroblock (and what it
 *                depends on) must be done, rows keep overlapping;
 *   --wait all   #pragma omp taskwait: the whole previous row must be done,
 *                which serialises the rows (what Nexus++ has to do).
 *
 *   --work N     mixing rounds per macroblock (small = fine-grained; the
 *                paper's h264dec tasks average 15 us)
 */
#include "app_common.h"

enum { WAIT_ON = 0, WAIT_ALL = 1 };

/* Decodes one macroblock: `work` rounds mixing its neighbours into it. */
static void decode(const uint64_t *west, const uint64_t *north_east,
                   uint64_t *mb, uint64_t seed, long work) {
  uint64_t v = *mb ^ seed, w = *west, ne = *north_east;
  for (long k = 0; k < work; k++) {
    v += w ^ (ne + (uint64_t)k);
    v ^= v >> 29;
    v *= 0xbf58476d1ce4e5b9ull;
    w = (w << 7) | (w >> 57);
  }
  *mb = v;
}

/* The creating thread's state for a row, from the previous row's first
 * macroblock (or a constant for the very first row). */
static uint64_t row_seed(uint64_t first_of_previous, long row) {
  return first_of_previous * 0x94d049bb133111ebull + (uint64_t)row;
}

int main(int argc, char **argv) {
  static const char *const waits[] = {"on", "all", NULL};
  app_opt opts[] = {
      {"width", 120, 1, 1 << 16, "macroblocks per row (1080p: 120)", NULL},
      {"height", 68, 1, 1 << 16, "macroblock rows per frame (1080p: 68)", NULL},
      {"frames", 4, 1, 1 << 20, "frames", NULL},
      {"work", 8000, 0, 1L << 30, "mixing rounds per macroblock", NULL},
      {"wait", WAIT_ON, 0, 1, "before each row: taskwait on or taskwait all",
       waits},
  };
  app_ctx a = {.name = "h264dec", .opts = opts, .nopts = 5};
  app_parse(&a, argc, argv);
  long w = opts[0].value, h = opts[1].value, frames = opts[2].value;
  long work = opts[3].value;
  int wait = (int)opts[4].value;
  static uint64_t zero = 0;

  uint64_t *want =
      (uint64_t *)app_alloc(&a, sizeof(uint64_t) * (size_t)(w * h));
  uint64_t *got = (uint64_t *)app_alloc(&a, sizeof(uint64_t) * (size_t)(w * h));
  for (long i = 0; i < w * h; i++)
    want[i] = got[i] = (uint64_t)i;

  double t0 = omp_get_wtime();
  uint64_t first = 0;
  for (long g = 0; g < frames * h; g++) {
    long r = g % h;
    uint64_t seed = row_seed(g ? first : 12345, g);
    for (long c = 0; c < w; c++)
      decode(c ? &want[r * w + c - 1] : &zero,
             r && c + 1 < w ? &want[(r - 1) * w + c + 1] : &zero,
             &want[r * w + c], seed, work);
    first = want[r * w];
  }
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    for (long g = 0; g < frames * h; g++) {
      long r = g % h;
      uint64_t first_prev = 12345;
      if (g) {
        uint64_t *prev = &got[((g - 1) % h) * w];
        if (wait == WAIT_ON) {
#pragma omp taskwait depend(in : prev[0])
        } else {
#pragma omp taskwait
        }
        first_prev = prev[0];
      }
      uint64_t seed = row_seed(first_prev, g);
      for (long c = 0; c < w; c++) {
        const uint64_t *west = c ? &got[r * w + c - 1] : &zero;
        const uint64_t *ne = r && c + 1 < w ? &got[(r - 1) * w + c + 1] : &zero;
        uint64_t *mb = &got[r * w + c];
        /* clang-format off */
#pragma omp task depend(in : west[0], ne[0]) depend(inout : mb[0]) \
    firstprivate(west, ne, mb, seed, work)
        /* clang-format on */
        decode(west, ne, mb, seed, work);
      }
    }
#pragma omp taskwait
  }
  a.time_s = omp_get_wtime() - t0;
  a.tasks = w * h * frames;
  app_check_ints(&a, "macroblock", got, want, (size_t)(w * h), sizeof got[0]);
  app_report(&a,
             app_runtime(&a,
                         (const char *const[]){"GOMP_taskwait@GOMP_2.0",
                                               "GOMP_taskwait_depend@GOMP_5.0"},
                         2));
  return 0;
}
