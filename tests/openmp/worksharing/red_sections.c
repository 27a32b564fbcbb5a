// Checks reductions on sections and parallel sections (+, *, -, &, |, ^, &&, ||, max, min on int; + on double; non-zero originals), 100 times: results equal the sequential fold over the sections.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

int main(void) {
  for (int rep = 0; rep < 100; rep++) {
    int sum = rep, prod = 2, minus = 100, band = 0xff, bor = 0x100, bxor = 1, land = 1, lor = 0;
    int mx = -5, mn = 5;
    double d = 0.5;
    int nthr = 0, seen = 0;
#pragma omp parallel reduction(+ : seen)
    {
      /* More than the sections construct in the region: not combined. */
#pragma omp single nowait
      nthr = omp_get_num_threads();
#pragma omp sections reduction(+ : sum, d) reduction(* : prod) reduction(- : minus) reduction(& : band) \
      reduction(| : bor) reduction(^ : bxor) reduction(&& : land) reduction(|| : lor) reduction(max : mx)  \
      reduction(min : mn)
      {
#pragma omp section
        {
          sum += 1, prod *= 3, minus -= 1, band &= 0xf0, bor |= 1, bxor ^= 6;
          land = land && 1, lor = lor || 0, mx = mx > 7 ? mx : 7, mn = mn < -2 ? mn : -2;
          d += 0.25;
        }
#pragma omp section
        {
          sum += 10, prod *= -5, minus -= 10, band &= 0x3c, bor |= 2, bxor ^= 12;
          land = land && 1, lor = lor || 1, mx = mx > 3 ? mx : 3, mn = mn < -9 ? mn : -9;
          d += 1.5;
        }
#pragma omp section
        {
          sum += 100, prod *= 7, minus -= 100, band &= 0xff, bor |= 4, bxor ^= 3;
          land = land && (rep % 2), lor = lor || 0, mx = mx > 11 ? mx : 11, mn = mn < 0 ? mn : 0;
          d += 0.125;
        }
      }
      /* The reduction is complete after the implicit barrier. */
      seen += sum == rep + 111;
    }
    CHECK(nthr, seen, "rep %d threads seeing the sections reduction after its barrier", rep);
    CHECK(rep + 111, sum, "rep %d sections +", rep);
    CHECK(2 * 3 * -5 * 7, prod, "rep %d sections *", rep);
    CHECK(100 - 111, minus, "rep %d sections -", rep);
    CHECK(0x30, band, "rep %d sections &", rep);
    CHECK(0x107, bor, "rep %d sections |", rep);
    CHECK(1 ^ 6 ^ 12 ^ 3, bxor, "rep %d sections ^", rep);
    CHECK(rep % 2, land, "rep %d sections &&", rep);
    CHECK(1, lor, "rep %d sections ||", rep);
    CHECK(11, mx, "rep %d sections max", rep);
    CHECK(-9, mn, "rep %d sections min", rep);
    CHECK(1, d == 2.375, "rep %d sections double + exact", rep);

    long psum = 0;
    unsigned pmul = 1;
#pragma omp parallel sections reduction(+ : psum) reduction(* : pmul)
    {
#pragma omp section
      psum += 1L << 40, pmul *= 3;
#pragma omp section
      psum += 2, pmul *= 5;
#pragma omp section
      psum += rep, pmul *= 7;
#pragma omp section
      psum -= 1, pmul *= 11;
    }
    CHECK((1L << 40) + 1 + rep, psum, "rep %d parallel sections long +", rep);
    CHECK(3 * 5 * 7 * 11, pmul, "rep %d parallel sections unsigned *", rep);
  }
  return fails != 0;
}
