/* Checks #pragma omp atomic update on integer types (char, short, int, unsigned, long, long long, array elements, struct fields) with every update form (x op= e, x = x op e, x = e op x, ++/--) under contention, against closed-form results. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define N 2000

struct pair {
  int a;
  long b;
};

int main(void)
{
  omp_set_dynamic(0);
  int ia = 0, ib = 0, ic = 1000000, id = 0;
  long la = 0, lb = 0;
  long long lla = 0;
  short sa = 0;
  unsigned char ca = 0;
  unsigned umul = 1, bor = 0, band = ~0u, bxor = 0;
  unsigned long long shl = 1, shr = 1ULL << 63;
  int arr[8] = {0};
  struct pair pr = {0, 0};
  int team = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    team++;
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      ia += 3;
#pragma omp atomic update
      ib = ib + t;
#pragma omp atomic
      ic = 2 + ic;
#pragma omp atomic
      ic -= 1;
#pragma omp atomic
      id++;
#pragma omp atomic
      ++id;
#pragma omp atomic
      id--;
#pragma omp atomic
      la -= 2;
#pragma omp atomic
      --lb;
#pragma omp atomic
      lla = lla + (long long)i * 1000003;
#pragma omp atomic
      sa++;
#pragma omp atomic
      ca += 1;
#pragma omp atomic
      umul *= 3u;
#pragma omp atomic
      bor |= 1u << ((t * N + i) % 29);
#pragma omp atomic
      band &= ~(1u << ((t * 7 + i) % 31));
#pragma omp atomic
      bxor ^= (unsigned)(t * N + i) * 2654435761u;
      if (i < 10) {
#pragma omp atomic
        shl <<= 1;
#pragma omp atomic
        shr >>= 1;
      }
#pragma omp atomic
      arr[(t + i) % 8] += 2;
#pragma omp atomic
      pr.a += 1;
#pragma omp atomic
      pr.b -= t;
    }
  }
  check(T, team, "team size");
  long long tot = (long long)T * N;
  check(3 * tot, ia, "ia += 3");
  check((long long)N * (T * (T - 1) / 2), ib, "ib = ib + t");
  check(1000000 + tot, ic, "ic = 2 + ic; ic -= 1");
  check(tot, id, "id++ ; ++id ; id--");
  check(-2 * tot, la, "la -= 2");
  check(-tot, lb, "--lb");
  check((long long)T * 1000003LL * ((long long)N * (N - 1) / 2), lla, "lla = lla + i*1000003");
  check((short)tot, sa, "short sa++");
  check((unsigned char)tot, ca, "unsigned char ca += 1");
  unsigned em = 1, eor = 0, eand = ~0u, exor = 0;
  int earr[8] = {0};
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      em *= 3u;
      eor |= 1u << ((t * N + i) % 29);
      eand &= ~(1u << ((t * 7 + i) % 31));
      exor ^= (unsigned)(t * N + i) * 2654435761u;
      earr[(t + i) % 8] += 2;
    }
  check(em, umul, "unsigned umul *= 3");
  check(eor, bor, "bor |=");
  check(eand, band, "band &=");
  check(exor, bxor, "bxor ^=");
  check((long long)(1ULL << (10 * T)), (long long)shl, "shl <<= 1 (x%d)", 10 * T);
  check((long long)((1ULL << 63) >> (10 * T)), (long long)shr, "shr >>= 1 (x%d)", 10 * T);
  for (int j = 0; j < 8; j++)
    check(earr[j], arr[j], "arr[%d] += 2", j);
  check(tot, pr.a, "struct field a += 1");
  check(-(long long)N * (T * (T - 1) / 2), pr.b, "struct field b -= t");
  return failures != 0;
}
