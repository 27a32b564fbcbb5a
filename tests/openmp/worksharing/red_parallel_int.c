// Checks reduction clauses on parallel regions for int with +, *, -, &, |, ^, &&, ||, max, min (combined with the original values), 100 times: results equal the sequential fold over the team.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

int main(void) {
  for (int rep = 0; rep < 100; rep++) {
    int sum = rep, prod = 3, minus = 1000, band = ~0, bor = 1 << 20, bxor = 5;
    int land = 1, land0 = 1, lor = 0, lor1 = 0, mx = -1000, mn = 1000, nthr = 0;
#pragma omp parallel reduction(+ : sum) reduction(* : prod) reduction(- : minus)                   \
    reduction(& : band) reduction(| : bor) reduction(^ : bxor) reduction(&& : land, land0)           \
    reduction(|| : lor, lor1) reduction(max : mx) reduction(min : mn)
    {
      int t = omp_get_thread_num();
#pragma omp single nowait
      nthr = omp_get_num_threads();
      sum += t + 1;
      prod *= t % 2 ? -2 : 2;
      minus -= t + 1;
      band &= ~(1 << t);
      bor |= 1 << t;
      bxor ^= (t << 4) | 1;
      land = land && t < 1000;
      land0 = land0 && t != 0; /* thread 0 makes it false */
      lor = lor || t == 0;     /* thread 0 makes it true */
      lor1 = lor1 || t > 1000;
      mx = mx > t * 3 ? mx : t * 3;
      mn = mn < -t ? mn : -t;
    }
    int esum = rep, eprod = 3, eminus = 1000, eband = ~0, ebor = 1 << 20, ebxor = 5;
    for (int t = 0; t < nthr; t++) {
      esum += t + 1;
      eprod *= t % 2 ? -2 : 2;
      eminus -= t + 1;
      eband &= ~(1 << t);
      ebor |= 1 << t;
      ebxor ^= (t << 4) | 1;
    }
    CHECK(esum, sum, "rep %d team %d reduction(+)", rep, nthr);
    CHECK(eprod, prod, "rep %d team %d reduction(*)", rep, nthr);
    CHECK(eminus, minus, "rep %d team %d reduction(-)", rep, nthr);
    CHECK(eband, band, "rep %d team %d reduction(&)", rep, nthr);
    CHECK(ebor, bor, "rep %d team %d reduction(|)", rep, nthr);
    CHECK(ebxor, bxor, "rep %d team %d reduction(^)", rep, nthr);
    CHECK(1, land, "rep %d team %d reduction(&&) all true", rep, nthr);
    CHECK(0, land0, "rep %d team %d reduction(&&) one false", rep, nthr);
    CHECK(1, lor, "rep %d team %d reduction(||) one true", rep, nthr);
    CHECK(0, lor1, "rep %d team %d reduction(||) all false", rep, nthr);
    CHECK(3 * (nthr - 1), mx, "rep %d team %d reduction(max)", rep, nthr);
    CHECK(-(nthr - 1), mn, "rep %d team %d reduction(min)", rep, nthr);
  }
  return fails != 0;
}
