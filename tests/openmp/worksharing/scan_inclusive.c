// Checks reduction(inscan, op: x) with scan inclusive(x) on worksharing loops (+ on int and long long with a non-zero original, max, + on exact doubles): every b[i] is the inclusive prefix and x ends as the full reduction.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define MAXN 3000
static int a[MAXN], b[MAXN], c[MAXN];
static long long bl[MAXN];
static double bd[MAXN];

static void run(int n) {
  for (int i = 0; i < n; i++)
    a[i] = (i * 7919) % 199 - 99;
  int x = 0, mx = -1000;
  long long xl = 1LL << 40;
  double xd = 0.25;
#pragma omp parallel
  {
#pragma omp for reduction(inscan, + : x)
    for (int i = 0; i < n; i++) {
      x += a[i];
#pragma omp scan inclusive(x)
      b[i] = x;
    }
#pragma omp for reduction(inscan, max : mx)
    for (int i = 0; i < n; i++) {
      mx = mx > a[i] ? mx : a[i];
#pragma omp scan inclusive(mx)
      c[i] = mx;
    }
#pragma omp for reduction(inscan, + : xl, xd)
    for (int i = 0; i < n; i++) {
      xl += (long long)a[i] * (1LL << 20);
      xd += a[i] * 0.5;
#pragma omp scan inclusive(xl, xd)
      bl[i] = xl;
      bd[i] = xd;
    }
  }
  int ex = 0, emx = -1000;
  long long exl = 1LL << 40;
  double exd = 0.25;
  for (int i = 0; i < n; i++) {
    ex += a[i];
    emx = emx > a[i] ? emx : a[i];
    exl += (long long)a[i] * (1LL << 20);
    exd += a[i] * 0.5;
    CHECK(ex, b[i], "n=%d + prefix b[%d]", n, i);
    CHECK(emx, c[i], "n=%d max prefix c[%d]", n, i);
    CHECK(exl, bl[i], "n=%d long long prefix (original 2^40) [%d]", n, i);
    CHECK(1, exd == bd[i], "n=%d double prefix [%d] exact", n, i);
  }
  CHECK(ex, x, "n=%d + result", n);
  CHECK(emx, mx, "n=%d max result", n);
  CHECK(exl, xl, "n=%d long long result", n);
  CHECK(1, exd == xd, "n=%d double result exact", n);
}

int main(void) {
  static const int sizes[] = {1, 2, 7, 100, 3000};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      run(sizes[s]);
  return fails != 0;
}
