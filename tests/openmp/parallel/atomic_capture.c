/* Checks atomic capture forms (v = x++, v = ++x, v = x--, {v = x; x += e;}, {x -= e; v = x;}, v = x += e, swap {v = x; x = e;}) on int, long and double: the captured values form exact permutations of the expected ticket sets. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define N 1000
#define TOT (T * N)

static unsigned char s_post[TOT], s_pre[TOT], s_dec[TOT], s_blk[TOT], s_sub[TOT], s_expr[TOT], s_dbl[TOT];
static unsigned char s_swap[TOT + 1];

static void mark(unsigned char *s, long idx, long lim, int *bad)
{
  if (idx < 0 || idx >= lim) {
#pragma omp atomic
    (*bad)++;
  } else {
#pragma omp atomic
    s[idx]++;
  }
}

int main(void)
{
  omp_set_dynamic(0);
  int post = 0, pre = 0, dec = TOT, blk = 0, expr = 0;
  long sub = 0;
  double dbl = 0.0;
  long swapv = TOT; /* initial token */
  int bad = 0, team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    for (int i = 0; i < N; i++) {
      int v;
      long lv;
      double dv;
#pragma omp atomic capture
      v = post++;
      mark(s_post, v, TOT, &bad);
#pragma omp atomic capture
      v = ++pre;
      mark(s_pre, v - 1, TOT, &bad);
#pragma omp atomic capture
      v = dec--;
      mark(s_dec, v - 1, TOT, &bad);
#pragma omp atomic capture
      {
        v = blk;
        blk += 2;
      }
      mark(s_blk, v / 2, TOT, &bad);
      if (v % 2)
        mark(s_blk, -1, TOT, &bad);
#pragma omp atomic capture
      {
        sub -= 3;
        lv = sub;
      }
      mark(s_sub, -lv / 3 - 1, TOT, &bad);
#pragma omp atomic capture
      v = expr += 5;
      mark(s_expr, v / 5 - 1, TOT, &bad);
#pragma omp atomic capture
      {
        dv = dbl;
        dbl += 1.0;
      }
      mark(s_dbl, (long)dv, TOT, &bad);
      long token = (long)t * N + i;
#pragma omp atomic capture
      {
        lv = swapv;
        swapv = token;
      }
      mark(s_swap, lv, TOT + 1, &bad);
    }
  }
  check(T, team, "team size");
  check(0, bad, "captured values outside the expected ranges");
  check(TOT, post, "final post");
  check(TOT, pre, "final pre");
  check(0, dec, "final dec");
  check(2 * TOT, blk, "final blk");
  check(-3L * TOT, sub, "final sub");
  check(5 * TOT, expr, "final expr");
  check(TOT, (long long)dbl, "final dbl");
  for (long k = 0; k < TOT; k++) {
    check(1, s_post[k], "v = x++ captured %ld", k);
    check(1, s_pre[k], "v = ++x captured %ld", k + 1);
    check(1, s_dec[k], "v = x-- captured %ld", k + 1);
    check(1, s_blk[k], "{v = x; x += 2;} captured %ld", 2 * k);
    check(1, s_sub[k], "{x -= 3; v = x;} captured %ld", -3 * (k + 1));
    check(1, s_expr[k], "v = x += 5 captured %ld", 5 * (k + 1));
    check(1, s_dbl[k], "double {v = x; x += 1.0;} captured %ld", k);
  }
  /* swap: every token but the final value was captured exactly once */
  if (swapv >= 0 && swapv < TOT)
    s_swap[swapv]++;
  else
    check(1, 0, "final swap value %ld in range", swapv);
  for (long k = 0; k <= TOT; k++)
    check(1, s_swap[k], "swap token %ld captured-or-final count", k);
  return failures != 0;
}
