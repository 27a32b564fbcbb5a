// Checks worksharing-loop reductions on long, unsigned, unsigned long long, double and float (+, *, -, max, min, &, |, ^; exactly representable doubles) under static, dynamic and guided: results equal the sequential loop.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 2000

#define DECLS                                                                  \
  long lsum = -(1L << 45), lmin = 1L << 50;                                    \
  unsigned umul = 1, uor = 0;                                                  \
  unsigned long long usum = ~0ULL - 5000, uxor = 0, umax = 0;                  \
  double dsum = 0.125, dmul = 1.0, dmax = -1e300, dminus = 3.0;                \
  float fsum = 0, fmin = 1e30f;

/* Exact: the doubles are multiples of 1/8 far below 2^53; the product is a
   power of two. */
#define BODY(i)                                                                \
  lsum += (long)i << 30;                                                       \
  lmin = lmin < ((long)(i % 77) << 40) - (1L << 45) ? lmin : ((long)(i % 77) << 40) - (1L << 45); \
  umul *= 2u * (unsigned)i + 1u;                                               \
  uor |= 1u << (i % 32);                                                       \
  usum += (unsigned long long)i * 3;                                           \
  uxor ^= (unsigned long long)i * 0x9e3779b97f4a7c15ULL;                       \
  umax = umax > (unsigned long long)i * 0x8000000000001ULL ? umax : (unsigned long long)i * 0x8000000000001ULL; \
  dsum += (i % 13) * 0.125;                                                    \
  dmul *= i % 100 == 7 ? 2.0 : i % 100 == 57 ? 0.25 : 1.0;                      \
  dmax = dmax > (i % 91) * -0.5 + 20 ? dmax : (i % 91) * -0.5 + 20;            \
  dminus -= (i % 4) * 0.5;                                                     \
  fsum += (i % 8) * 0.25f;                                                     \
  fmin = fmin < 3.5f - (float)(i % 17) ? fmin : 3.5f - (float)(i % 17);

#define REDS                                                                   \
  reduction(+ : lsum, usum, dsum, fsum) reduction(min : lmin, fmin) reduction(* : umul, dmul) \
      reduction(| : uor) reduction(^ : uxor) reduction(max : umax, dmax) reduction(- : dminus)

#define SAME(what, a, b) CHECK(1, (a) == (b), "%s rep %d %s equal to the sequential result", tag, rep, what)

#define RUN(sched, tagv)                                                       \
  {                                                                            \
    const char *tag = tagv;                                                    \
    DECLS                                                                      \
    _Pragma("omp parallel") _Pragma(sched) for (int i = 0; i < N; i++) {        \
      BODY(i)                                                                  \
    }                                                                          \
    SAME("long +", e.lsum, lsum);                                              \
    SAME("long min", e.lmin, lmin);                                            \
    SAME("unsigned *", e.umul, umul);                                          \
    SAME("unsigned |", e.uor, uor);                                            \
    SAME("unsigned long long +", e.usum, usum);                                \
    SAME("unsigned long long ^", e.uxor, uxor);                                \
    SAME("unsigned long long max", e.umax, umax);                              \
    SAME("double +", e.dsum, dsum);                                            \
    SAME("double *", e.dmul, dmul);                                            \
    SAME("double max", e.dmax, dmax);                                          \
    SAME("double -", e.dminus, dminus);                                        \
    SAME("float +", e.fsum, fsum);                                             \
    SAME("float min", e.fmin, fmin);                                           \
  }

int main(void) {
  struct {
    long lsum, lmin;
    unsigned umul, uor;
    unsigned long long usum, uxor, umax;
    double dsum, dmul, dmax, dminus;
    float fsum, fmin;
  } e;
  {
    DECLS
    for (int i = 0; i < N; i++) {
      BODY(i)
    }
    e.lsum = lsum, e.lmin = lmin, e.umul = umul, e.uor = uor, e.usum = usum, e.uxor = uxor;
    e.umax = umax, e.dsum = dsum, e.dmul = dmul, e.dmax = dmax, e.dminus = dminus;
    e.fsum = fsum, e.fmin = fmin;
  }
  for (int rep = 0; rep < 10; rep++) {
    RUN("omp for schedule(static) REDS", "static")
    RUN("omp for schedule(dynamic, 8) REDS", "dynamic,8")
    RUN("omp for schedule(guided) REDS", "guided")
  }
  return fails != 0;
}
