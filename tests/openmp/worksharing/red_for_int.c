// Checks reductions on worksharing loops for int with +, *, -, &, |, ^, &&, ||, max, min under static, static chunk, dynamic and guided, with non-zero originals, 10 times: results equal the sequential loop.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 1000

static int v(int i) { return (i * 37 + 11) % 101 - 50; }

/* The loop body, run sequentially for the expected values and under each
   reduction. */
#define BODY(i)                                                                \
  sum += v(i);                                                                 \
  prod *= i % 97 == 3 ? -2 : 1;                                                \
  minus -= v(i);                                                               \
  band &= i % 7 ? ~0 : ~(1 << (i % 31));                                       \
  bor |= i % 5 ? 0 : 1 << (i % 29);                                            \
  bxor ^= (v(i) + 50) << 8;                                                    \
  land = land && v(i) != 51;                                                   \
  lor = lor || v(i) == 50;                                                     \
  mx = mx > v(i) ? mx : v(i);                                                  \
  mn = mn < v(i) ? mn : v(i);

#define DECLS                                                                  \
  int sum = 5, prod = 3, minus = 7, band = ~0, bor = 0, bxor = 0x55, land = 1, lor = 0; \
  int mx = -1000, mn = 1000;

#define REDS                                                                   \
  reduction(+ : sum) reduction(* : prod) reduction(- : minus) reduction(& : band) \
      reduction(| : bor) reduction(^ : bxor) reduction(&& : land) reduction(|| : lor) \
          reduction(max : mx) reduction(min : mn)

#define COMPARE(tag)                                                           \
  CHECK(e[0], sum, "%s rep %d +", tag, rep);                                   \
  CHECK(e[1], prod, "%s rep %d *", tag, rep);                                  \
  CHECK(e[2], minus, "%s rep %d -", tag, rep);                                 \
  CHECK(e[3], band, "%s rep %d &", tag, rep);                                  \
  CHECK(e[4], bor, "%s rep %d |", tag, rep);                                   \
  CHECK(e[5], bxor, "%s rep %d ^", tag, rep);                                  \
  CHECK(e[6], land, "%s rep %d &&", tag, rep);                                 \
  CHECK(e[7], lor, "%s rep %d ||", tag, rep);                                  \
  CHECK(e[8], mx, "%s rep %d max", tag, rep);                                  \
  CHECK(e[9], mn, "%s rep %d min", tag, rep);

#define RUN(sched, tag)                                                        \
  {                                                                            \
    DECLS                                                                      \
    _Pragma("omp parallel") _Pragma(sched) for (int i = 0; i < N; i++) {        \
      BODY(i)                                                                  \
    }                                                                          \
    COMPARE(tag)                                                               \
  }

int main(void) {
  int e[10];
  {
    DECLS
    for (int i = 0; i < N; i++) {
      BODY(i)
    }
    int x[10] = {sum, prod, minus, band, bor, bxor, land, lor, mx, mn};
    for (int k = 0; k < 10; k++)
      e[k] = x[k];
  }
  for (int rep = 0; rep < 10; rep++) {
    RUN("omp for schedule(static) REDS", "static")
    RUN("omp for schedule(static, 3) REDS", "static,3")
    RUN("omp for schedule(dynamic, 4) REDS", "dynamic,4")
    RUN("omp for schedule(guided) REDS", "guided")
  }

  /* The same variables reduced by 50 loops in a row inside one region. */
  int sum = 5, mx = -1000, rep = 50;
#pragma omp parallel
  for (int k = 0; k < 50; k++) {
#pragma omp for schedule(dynamic) reduction(+ : sum) reduction(max : mx)
    for (int i = 0; i < N; i++) {
      sum += v(i);
      mx = mx > v(i) + k ? mx : v(i) + k;
    }
  }
  CHECK(5 + 50 * (e[0] - 5), sum, "rep %d: + accumulated over 50 loops", rep);
  CHECK(50 + 49, mx, "rep %d: max accumulated over 50 loops", rep);
  return fails != 0;
}
