// Checks private, firstprivate and lastprivate on sections (and parallel sections, nowait + barrier): each section sees the original in its (per-thread) firstprivate copy; lastprivate takes the lexically last section's value.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

int main(void) {
  for (int rep = 0; rep < 100; rep++) {
    int x = -1, y = 10 * rep, z = -5, bad = 0;
    double d = -1;
#pragma omp parallel reduction(+ : bad)
    {
#pragma omp sections firstprivate(y) lastprivate(x, d) private(z)
      {
#pragma omp section
        {
          bad += y != 10 * rep;
          z = 1;
          x = 100 + z;
          d = 0.5;
        }
#pragma omp section
        {
          bad += y != 10 * rep;
          z = 2;
          x = 200 + z;
          d = 1.5;
        }
#pragma omp section
        {
          bad += y != 10 * rep;
          if (rep % 2) /* the last section finishes late */
            for (volatile int spin = 0; spin < 1000; spin++)
              ;
          z = 3;
          x = 300 + z + rep;
          d = 2.25;
        }
      }
    }
    CHECK(0, bad, "rep %d sections that saw a wrong firstprivate", rep);
    CHECK(303 + rep, x, "rep %d lastprivate from the lexically last section", rep);
    CHECK(225, (int)(d * 100), "rep %d lastprivate double (x100)", rep);
    CHECK(10 * rep, y, "rep %d original of the firstprivate variable", rep);
    CHECK(-5, z, "rep %d original of the private variable", rep);

    int w = -1, seen = 0, nthr = 0;
#pragma omp parallel reduction(+ : seen)
    {
#pragma omp single nowait
      nthr = omp_get_num_threads();
#pragma omp sections lastprivate(w) nowait
      {
#pragma omp section
        w = 1;
#pragma omp section
        w = 2 + rep;
      }
#pragma omp barrier
      seen += w == 2 + rep;
    }
    CHECK(nthr, seen, "rep %d threads seeing the lastprivate after nowait + barrier", rep);

    int v = -1;
#pragma omp parallel sections lastprivate(v)
    {
#pragma omp section
      v = 7;
#pragma omp section
      v = 8;
#pragma omp section
      v = 9 + rep;
    }
    CHECK(9 + rep, v, "rep %d parallel sections lastprivate", rep);
  }
  return fails != 0;
}
