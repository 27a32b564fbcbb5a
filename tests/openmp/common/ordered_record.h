/* Recording the order in which the ordered regions of a worksharing loop
   ran, and checking it: each logical iteration's region once, in iteration
   order. delay() makes some iterations slow before their region.

   Reports through CHECK() (ws_check.h). C (gnu11) only, like the programs
   that use it (its busy loops increment a volatile, which C++20 deprecates);
   the functions are static inline, so unused ones do not warn. */
#ifndef WEFT_ORDERED_RECORD_H
#define WEFT_ORDERED_RECORD_H

#include "ws_check.h"

/* seen[p]: the logical iteration whose ordered region ran p-th; pos: how many
   ordered regions ran (only touched inside ordered regions). */
#define MAXN 4096
static int seen[MAXN], cnt[MAXN], pos;

static inline void reset(int n) {
  for (int k = 0; k < n; k++)
    seen[k] = -1, cnt[k] = 0;
  pos = 0;
}

/* Some iterations take longer before their ordered region, so that later
   iterations reach theirs first. */
static inline void delay(int k) {
  if (k % 7 == 3)
    for (volatile int spin = 0; spin < 2000; spin++)
      ;
}

/* Called inside the ordered region of logical iteration k. */
static inline void in_order(int k) {
  if (pos < MAXN)
    seen[pos] = k;
  pos++;
#pragma omp atomic
  cnt[k]++;
}

static inline void check_order(const char *tag, int n) {
  CHECK(n, pos, "%s n=%d ordered regions run", tag, n);
  for (int p = 0; p < n; p++) {
    CHECK(p, seen[p], "%s n=%d ordered region #%d was iteration", tag, n, p);
    CHECK(1, cnt[p], "%s n=%d count[%d]", tag, n, p);
  }
}

#endif
