/* What the region versions of the benchmark twins share: region ids and
 * numbers passed as task arguments, the error exit, the wait for every
 * task spawned so far, and the timed section's phase marks. */
#ifndef WEFT_BENCH_REGIONS_TWIN_H
#define WEFT_BENCH_REGIONS_TWIN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <weft/regions.h>
#include <weft/weft.h>

static inline void *rid_arg(weft_rid r) { return (void *)(uintptr_t)r; }
static inline void *long_arg(long v) { return (void *)(intptr_t)v; }

/* Exits 1, naming the program, what failed and weft's last error. */
static inline void twin_fail(const char *prog, const char *what) {
  fprintf(stderr, "%s: %s: %s\n", prog, what, weft_last_error());
  exit(1);
}

/* Returns once every task spawned so far has finished: the root region is
 * back with inout access. */
static inline void twin_wait_all(const char *prog) {
  void *root[1] = {rid_arg(WEFT_ROOT_REGION)};
  int rtype[1] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
  if (weft_wait(root, rtype, 1) != WEFT_OK)
    twin_fail(prog, "weft_wait");
}

/* The timed section, marked in the trace (WEFT_TRACE) as phase "timed":
 * `weft sim --phase timed` replays only its tasks (docs/simulator.md). */
static inline void twin_timed_begin(const char *prog) {
  if (weft_trace_phase_begin("timed") != WEFT_OK)
    twin_fail(prog, "weft_trace_phase_begin");
}
static inline void twin_timed_end(const char *prog) {
  if (weft_trace_phase_end("timed") != WEFT_OK)
    twin_fail(prog, "weft_trace_phase_end");
}

#endif
