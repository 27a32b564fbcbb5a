// Checks ordered loops where only some iterations reach an ordered region, the region is in a called function, the loop has nowait, or the team is nested: the regions that run do so once each, in iteration order.
#include <omp.h>
#include <stdio.h>

#include "ordered_record.h"

static void ordered_in_function(int k) {
#pragma omp ordered
  in_order(k);
}

/* Expected sequence when only multiples of m reach the ordered region. */
static void check_subset(const char *tag, int n, int m) {
  int expect = (n + m - 1) / m;
  CHECK(expect, pos, "%s n=%d ordered regions run", tag, n);
  for (int p = 0; p < expect && p < MAXN; p++)
    CHECK(p * m, seen[p], "%s n=%d ordered region #%d was iteration", tag, n, p);
}

int main(void) {
  static const int sizes[] = {1, 10, 301};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s];

      reset(n);
#pragma omp parallel
#pragma omp for ordered schedule(dynamic, 2)
      for (int i = 0; i < n; i++) {
        delay(i);
        if (i % 3 == 0) {
#pragma omp ordered
          in_order(i);
        }
      }
      check_subset("every third, dynamic,2", n, 3);

      reset(n);
#pragma omp parallel
#pragma omp for ordered schedule(static, 3)
      for (int i = 0; i < n; i++) {
        delay(i);
        ordered_in_function(i);
      }
      check_order("orphaned ordered, static,3", n);

      reset(n);
#pragma omp parallel
      {
#pragma omp for ordered schedule(guided) nowait
        for (int i = 0; i < n; i++) {
          delay(i);
#pragma omp ordered
          in_order(i);
        }
#pragma omp barrier
      }
      check_order("nowait, guided", n);
    }

  /* Nested: each inner team has its own ordered sequence (few times: some
     runtimes do not keep nested threads around). */
  for (int t = 0; t < 2; t++) {
    int n = t ? 301 : 1;
    omp_set_max_active_levels(2);
    static int inner_seen[2][512], inner_pos[2];
    inner_pos[0] = inner_pos[1] = 0;
#pragma omp parallel num_threads(2)
    {
      int o = omp_get_thread_num();
#pragma omp parallel for ordered schedule(dynamic) num_threads(2)
      for (int i = 0; i < n; i++) {
        delay(i);
#pragma omp ordered
        inner_seen[o][inner_pos[o]++] = i;
      }
    }
    for (int o = 0; o < 2; o++) {
      CHECK(n, inner_pos[o], "nested n=%d outer thread %d ordered regions run", n, o);
      for (int p = 0; p < n && p < inner_pos[o]; p++)
        CHECK(p, inner_seen[o][p], "nested n=%d outer thread %d region #%d was iteration", n, o, p);
    }
  }
  return fails != 0;
}
