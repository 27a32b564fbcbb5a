// Checks reduction(inscan, op: x) with scan exclusive(x) on worksharing loops (+ with a non-zero original, *, max, + on exact doubles): every b[i] is the exclusive prefix and x ends as the full reduction.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define MAXN 3000
static int a[MAXN], b[MAXN], c[MAXN];
static unsigned bm[MAXN];
static double bd[MAXN];

static void run(int n) {
  for (int i = 0; i < n; i++)
    a[i] = (i * 7919) % 199 - 99;
  int x = 17, mx = -1000;
  unsigned m = 1;
  double xd = 0;
#pragma omp parallel
  {
#pragma omp for reduction(inscan, + : x)
    for (int i = 0; i < n; i++) {
      b[i] = x;
#pragma omp scan exclusive(x)
      x += a[i];
    }
#pragma omp for reduction(inscan, max : mx) reduction(inscan, * : m)
    for (int i = 0; i < n; i++) {
      c[i] = mx;
      bm[i] = m;
#pragma omp scan exclusive(mx, m)
      mx = mx > a[i] ? mx : a[i];
      m *= 2u * (unsigned)i + 1u; /* wraps: exact modulo 2^32 */
    }
#pragma omp for reduction(inscan, + : xd)
    for (int i = 0; i < n; i++) {
      bd[i] = xd;
#pragma omp scan exclusive(xd)
      xd += a[i] * 0.25;
    }
  }
  int ex = 17, emx = -1000;
  unsigned em = 1;
  double exd = 0;
  for (int i = 0; i < n; i++) {
    CHECK(ex, b[i], "n=%d + exclusive prefix (original 17) b[%d]", n, i);
    CHECK(emx, c[i], "n=%d max exclusive prefix c[%d]", n, i);
    CHECK(em, bm[i], "n=%d * exclusive prefix [%d]", n, i);
    CHECK(1, exd == bd[i], "n=%d double exclusive prefix [%d] exact", n, i);
    ex += a[i];
    emx = emx > a[i] ? emx : a[i];
    em *= 2u * (unsigned)i + 1u;
    exd += a[i] * 0.25;
  }
  CHECK(ex, x, "n=%d + result", n);
  CHECK(emx, mx, "n=%d max result", n);
  CHECK(em, m, "n=%d * result", n);
  CHECK(1, exd == xd, "n=%d double result exact", n);
}

int main(void) {
  static const int sizes[] = {1, 2, 7, 100, 3000};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      run(sizes[s]);
  return fails != 0;
}
