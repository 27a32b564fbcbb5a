// Checks the static-schedule guarantee: two static loops (nowait between them) with the same trip count and chunk give every logical iteration to the same thread, so the second may read what the first wrote.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static int a[MAXN], b[MAXN], owner2[MAXN];

static void run(int n, int c) {
  reset(n);
  for (int k = 0; k < n; k++)
    a[k] = -1, b[k] = -1, owner2[k] = -2;
#pragma omp parallel
  {
    int myseq = 0;
    if (c == 0) {
#pragma omp for schedule(static) nowait
      for (int i = 0; i < n; i++) {
        record(i, &myseq);
#pragma omp atomic write
        a[i] = 3 * i + 1;
      }
      /* Different bounds and step, same trip count: same assignment. */
#pragma omp for schedule(static) nowait
      for (int j = 100; j < 100 + 2 * n; j += 2) {
        int k = (j - 100) / 2, v;
#pragma omp atomic read
        v = a[k];
        b[k] = v;
        owner2[k] = omp_get_thread_num();
      }
    } else {
#pragma omp for schedule(static, c) nowait
      for (int i = 0; i < n; i++) {
        record(i, &myseq);
#pragma omp atomic write
        a[i] = 3 * i + 1;
      }
#pragma omp for schedule(static, c) nowait
      for (int j = n - 1; j >= 0; j--) {
        /* Logical iteration n-1-j reads what logical iteration n-1-j wrote. */
        int k = n - 1 - j, v;
#pragma omp atomic read
        v = a[k];
        b[k] = v;
        owner2[k] = omp_get_thread_num();
      }
    }
  }
  check_once(c ? "static,c" : "static", n);
  for (int k = 0; k < n; k++) {
    CHECK(owner[k], owner2[k], "chunk=%d n=%d owner of iteration %d in second loop", c, n, k);
    CHECK(3 * k + 1, b[k], "chunk=%d n=%d value read by iteration %d", c, n, k);
  }
}

int main(void) {
  static const int sizes[] = {1, 3, 17, 256, 1000};
  for (int rep = 0; rep < 20; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      run(sizes[s], 0);
      run(sizes[s], 1);
      run(sizes[s], 5);
    }
  return fails != 0;
}
