/* Checks #pragma omp atomic update on float and double (+=, -=, *=, /=, x = x + e) under contention, using exactly representable values so the result is order-independent. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define N 2000

int main(void)
{
  omp_set_dynamic(0);
  double d = 0.0, dm = 1.0, dd = 1024.0, dsub = 100000.0, dform = 0.0;
  float f = 0.0f, fm = 1.0f, fsub = 0.0f;
  int team = 0;
#pragma omp parallel num_threads(T)
  {
#pragma omp atomic
    team++;
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      d += 0.5;
#pragma omp atomic
      f += 0.25f;
#pragma omp atomic
      dsub -= 1.5;
#pragma omp atomic
      fsub -= 0.125f;
#pragma omp atomic update
      dform = dform + 0.75;
      if (i < 5) {
#pragma omp atomic
        dm *= 2.0;
#pragma omp atomic
        fm *= 4.0f;
#pragma omp atomic
        dd /= 2.0;
      }
    }
  }
  check(T, team, "team size");
  long long tot = (long long)T * N;
  check(tot, (long long)(d * 2), "double += 0.5 (x2)");
  check(tot, (long long)(f * 4), "float += 0.25f (x4)");
  check((long long)(100000 - 1.5 * tot) * 2, (long long)(dsub * 2), "double -= 1.5 (x2)");
  check(-tot, (long long)(fsub * 8), "float -= 0.125f (x8)");
  check(tot * 3, (long long)(dform * 4), "double = double + 0.75 (x4)");
  check(1LL << (5 * T), (long long)dm, "double *= 2.0");
  check(1LL << (10 * T), (long long)fm, "float *= 4.0f");
  check(1024, (long long)(dd * (double)(1LL << (5 * T))), "double /= 2.0, times 2^%d", 5 * T);
  return failures != 0;
}
