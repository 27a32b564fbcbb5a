// Checks cancel for with OMP_CANCELLATION=true (.env): the cancelling thread starts no further iteration, none runs twice, a team of one stops exactly at the cancel, and later loops in the region run fully.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static int done[MAXN], after[MAXN];

static void run(int n, int k, int dynamic) {
  int nthr = 0;
  const char *tag = dynamic ? "dynamic,3" : "static";
  reset(n);
  for (int i = 0; i < n; i++)
    done[i] = 0, after[i] = 0;
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
    if (dynamic) {
#pragma omp for schedule(dynamic, 3)
      for (int i = 0; i < n; i++) {
        record(i, &myseq); /* started */
#pragma omp cancel for if (i == k)
#pragma omp atomic
        done[i]++;
#pragma omp cancellation point for
      }
    } else {
#pragma omp for schedule(static)
      for (int i = 0; i < n; i++) {
        record(i, &myseq);
        if (i == k) {
#pragma omp cancel for
        }
#pragma omp atomic
        done[i]++;
#pragma omp cancellation point for
      }
    }
    /* Not cancelled: runs fully. */
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < n; i++)
#pragma omp atomic
      after[i]++;
  }
  CHECK(1, cnt[k], "%s n=%d: the cancelling iteration %d started", tag, n, k);
  CHECK(0, done[k], "%s n=%d: the cancelling iteration %d went on after cancel", tag, n, k);
  for (int i = 0; i < n; i++) {
    CHECK(1, cnt[i] <= 1, "%s n=%d cancel at %d: iteration %d started at most once", tag, n, k, i);
    if (owner[i] == owner[k] && seq[i] > seq[k])
      CHECK(-1, i, "%s n=%d cancel at %d: the cancelling thread started a later iteration", tag, n, k);
    if (nthr == 1)
      CHECK(i < k, done[i], "%s one thread, n=%d cancel at %d: iteration %d completed", tag, n, k, i);
    CHECK(1, after[i], "%s n=%d cancel at %d: loop after the cancelled one count[%d]", tag, n, k, i);
  }
}

int main(void) {
  CHECK(1, omp_get_cancellation(), "omp_get_cancellation with OMP_CANCELLATION=true");
  for (int rep = 0; rep < 10; rep++)
    for (int dyn = 0; dyn < 2; dyn++) {
      run(100, 0, dyn);
      run(100, 37, dyn);
      run(100, 99, dyn);
      run(7, 3, dyn);
    }
  return fails != 0;
}
