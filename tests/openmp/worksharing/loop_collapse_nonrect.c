// Checks non-rectangular collapse(2) loops (triangles j >= i and j < i, upward, downward, shifted; for, for nowait, parallel for): every (i,j) of the triangle once, nothing outside it.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 60
static int hits[N][N];

static void clear(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      hits[i][j] = 0;
}

static void check(const char *tag, int n, int upper) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int in = i < n && j < n && (upper ? j >= i : j < i);
      CHECK(in, hits[i][j], "%s n=%d count[%d][%d]", tag, n, i, j);
    }
}

static void hit(int i, int j) {
#pragma omp atomic
  hits[i][j]++;
}

int main(void) {
  /* GCC allows no schedule clause on non-rectangular loops: default schedule. */
  static const int sizes[] = {0, 1, 2, 5, 31, N};
  for (int rep = 0; rep < 5; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int n = sizes[s];
      clear();
#pragma omp parallel for collapse(2)
      for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++)
          hit(i, j);
      check("parallel for upper", n, 1);

      clear();
#pragma omp parallel
#pragma omp for collapse(2)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
          hit(i, j);
      check("for lower", n, 0);

      clear();
#pragma omp parallel
      {
#pragma omp for collapse(2) nowait
        for (int i = n - 1; i >= 0; i--)
          for (int j = n - 1; j >= i; j--)
            hit(i, j);
      }
      check("for nowait upper, downward", n, 1);

      clear();
#pragma omp parallel
#pragma omp for collapse(2)
      for (int i = 0; i < n; i++)
        for (int j = i - n; j < 0; j++) /* j + n in [i, n) */
          hit(i, j + n);
      check("for upper, shifted", n, 1);
    }
  return fails != 0;
}
