// Checks reductions on parallel regions for long, unsigned, unsigned long long, short, char, double and float (+, *, -, max, min, &, |, ^): results equal the sequential fold over the team.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

int main(void) {
  for (int rep = 0; rep < 100; rep++) {
    long lsum = 1L << 40, lmax = -(1L << 40);
    unsigned umul = 7, uxor = 0x1234u, umin = ~0u;
    unsigned long long usum = ~0ULL - 3, uor = 0, uand = ~0ULL;
    short ssum = 0;
    signed char cmax = -100;
    double dsum = 0.25, dmul = 1, dmin = 1e300, dminus = 0;
    float fsum = 0.5f, fmax = -1e30f;
    int nthr = 0;
#pragma omp parallel reduction(+ : lsum, usum, ssum, dsum, fsum) reduction(max : lmax, cmax, fmax)      \
    reduction(* : umul, dmul) reduction(^ : uxor) reduction(min : umin, dmin) reduction(| : uor)          \
    reduction(& : uand) reduction(- : dminus)
    {
      int t = omp_get_thread_num();
#pragma omp single nowait
      nthr = omp_get_num_threads();
      lsum += (long)t << 33;
      lmax = lmax > ((long)t << 35) ? lmax : (long)t << 35;
      umul *= 0x9e3779b1u + (unsigned)t; /* wraps: exact modulo 2^32 */
      uxor ^= 0x10001u << t;
      umin = umin < 100u + (unsigned)t ? umin : 100u + (unsigned)t;
      usum += (unsigned long long)t + 1; /* wraps past ULLONG_MAX */
      uor |= 1ULL << (40 + t);
      uand &= ~(1ULL << (50 + t));
      ssum += (short)(t + 1);
      cmax = cmax > (signed char)(t - 5) ? cmax : (signed char)(t - 5);
      dsum += 0.5 * t;
      dmul *= t % 2 ? 0.5 : 4.0;
      dmin = dmin < 1.5 * t - 3 ? dmin : 1.5 * t - 3;
      dminus -= 0.25 * (t + 1);
      fsum += 0.25f * t;
      fmax = fmax > -2.0f * t ? fmax : -2.0f * t;
    }
    long elsum = 1L << 40;
    unsigned eumul = 7, euxor = 0x1234u;
    unsigned long long eusum = ~0ULL - 3, euor = 0, euand = ~0ULL;
    int essum = 0;
    double edsum = 0.25, edmul = 1, edminus = 0;
    float efsum = 0.5f;
    for (int t = 0; t < nthr; t++) {
      elsum += (long)t << 33;
      eumul *= 0x9e3779b1u + (unsigned)t;
      euxor ^= 0x10001u << t;
      eusum += (unsigned long long)t + 1;
      euor |= 1ULL << (40 + t);
      euand &= ~(1ULL << (50 + t));
      essum += t + 1;
      edsum += 0.5 * t;
      edmul *= t % 2 ? 0.5 : 4.0;
      edminus -= 0.25 * (t + 1);
      efsum += 0.25f * t;
    }
    CHECK(elsum, lsum, "rep %d team %d long +", rep, nthr);
    CHECK((long)(nthr - 1) << 35, lmax, "rep %d team %d long max", rep, nthr);
    CHECK(eumul, umul, "rep %d team %d unsigned *", rep, nthr);
    CHECK(euxor, uxor, "rep %d team %d unsigned ^", rep, nthr);
    CHECK(100, umin, "rep %d team %d unsigned min", rep, nthr);
    CHECK(1, eusum == usum, "rep %d team %d unsigned long long + (wrapping)", rep, nthr);
    CHECK(1, euor == uor, "rep %d team %d unsigned long long |", rep, nthr);
    CHECK(1, euand == uand, "rep %d team %d unsigned long long &", rep, nthr);
    CHECK(essum, ssum, "rep %d team %d short +", rep, nthr);
    CHECK(nthr - 6, cmax, "rep %d team %d char max", rep, nthr);
    /* All double/float values here are exact binary fractions. */
    CHECK(1, edsum == dsum, "rep %d team %d double + exact", rep, nthr);
    CHECK(1, edmul == dmul, "rep %d team %d double * exact", rep, nthr);
    CHECK(1, dmin == -3.0, "rep %d team %d double min", rep, nthr);
    CHECK(1, edminus == dminus, "rep %d team %d double - exact", rep, nthr);
    CHECK(1, efsum == fsum, "rep %d team %d float + exact", rep, nthr);
    CHECK(1, fmax == 0.0f, "rep %d team %d float max", rep, nthr);
  }
  return fails != 0;
}
