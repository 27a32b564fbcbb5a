/* Checks reduction clauses on parallel for + * - max min & | ^ && || over int/long/unsigned/double/long double with team sizes 1..6, against sequentially computed results (initial values included). */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <limits.h>

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 20; rep++) {
    for (int k = 1; k <= 6; k++) {
      long s = 1000 + rep, sub = 7;
      long p = 3;
      int mx = INT_MIN + 5, mn = INT_MAX - 5;
      unsigned band = ~0u, bor = 0x100u, bx = 0x5u;
      int land = 1, lor = 0;
      double ds = 0.25;
      long double lds = 0.5L;
#pragma omp parallel num_threads(k) reduction(+ : s, ds, lds) reduction(- : sub) reduction(* : p) reduction(max : mx) \
    reduction(min : mn) reduction(& : band) reduction(| : bor) reduction(^ : bx) reduction(&& : land) reduction(|| : lor)
      {
        int t = omp_get_thread_num();
        s += t + 1;
        sub += 2 * t; /* '-' reductions add the partial results */
        p *= t + 2;
        mx = mx > 10 * t - 7 ? mx : 10 * t - 7;
        mn = mn < -3 * t + rep ? mn : -3 * t + rep;
        band &= ~(1u << t);
        bor |= 1u << (2 * t);
        bx ^= 0x55u * (unsigned)(t + 1);
        land = land && (t < 5);
        lor = lor || (t == k - 1);
        ds += 0.5 * (t + 1);
        lds += 0.25L * (t + 1);
      }
      long es = 1000 + rep, esub = 7, ep = 3;
      int emx = INT_MIN + 5, emn = INT_MAX - 5, eland = 1, elor = 0;
      unsigned eband = ~0u, ebor = 0x100u, ebx = 0x5u;
      double eds = 0.25;
      long double elds = 0.5L;
      for (int t = 0; t < k; t++) {
        es += t + 1;
        esub += 2 * t;
        ep *= t + 2;
        emx = emx > 10 * t - 7 ? emx : 10 * t - 7;
        emn = emn < -3 * t + rep ? emn : -3 * t + rep;
        eband &= ~(1u << t);
        ebor |= 1u << (2 * t);
        ebx ^= 0x55u * (unsigned)(t + 1);
        eland = eland && (t < 5);
        elor = elor || (t == k - 1);
        eds += 0.5 * (t + 1);
        elds += 0.25L * (t + 1);
      }
      check(es, s, "k=%d rep=%d: + reduction", k, rep);
      check(esub, sub, "k=%d rep=%d: - reduction", k, rep);
      check(ep, p, "k=%d rep=%d: * reduction", k, rep);
      check(emx, mx, "k=%d rep=%d: max reduction", k, rep);
      check(emn, mn, "k=%d rep=%d: min reduction", k, rep);
      check(eband, band, "k=%d rep=%d: & reduction", k, rep);
      check(ebor, bor, "k=%d rep=%d: | reduction", k, rep);
      check(ebx, bx, "k=%d rep=%d: ^ reduction", k, rep);
      check(eland, land, "k=%d rep=%d: && reduction", k, rep);
      check(elor, lor, "k=%d rep=%d: || reduction", k, rep);
      check((long long)(eds * 4), (long long)(ds * 4), "k=%d rep=%d: double + reduction (x4)", k, rep);
      check((long long)(elds * 4), (long long)(lds * 4), "k=%d rep=%d: long double + reduction (x4)", k, rep);
    }
  }
  return failures != 0;
}
