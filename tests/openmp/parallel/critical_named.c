/* Checks named critical sections: three names each protect their own counter under contention (no lost updates, occupancy 1 per name), nesting of different names (alpha then beta) works, and an unnamed critical is independent of the named ones. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4
#define PER 3000

static long cnt[3];
static int occ[3], overlaps[3];
static long nested_cnt, unnamed_cnt;

static void enter(int n)
{
  if (__atomic_add_fetch(&occ[n], 1, __ATOMIC_RELAXED) != 1)
    overlaps[n]++;
  cnt[n] = cnt[n] + 1;
  __atomic_sub_fetch(&occ[n], 1, __ATOMIC_RELAXED);
}

int main(void)
{
  omp_set_dynamic(0);
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    for (int i = 0; i < PER; i++) {
      switch ((t + i) % 3) {
      case 0: {
#pragma omp critical(alpha)
        enter(0);
        break;
      }
      case 1: {
#pragma omp critical(beta)
        enter(1);
        break;
      }
      default: {
#pragma omp critical(gamma)
        enter(2);
        break;
      }
      }
      if (i % 10 == 0) {
#pragma omp critical(alpha)
        {
#pragma omp critical(beta)
          nested_cnt++;
        }
#pragma omp critical
        unnamed_cnt++;
      }
    }
  }
  long exp[3] = {0, 0, 0};
  for (int t = 0; t < T; t++)
    for (int i = 0; i < PER; i++)
      exp[(t + i) % 3]++;
  const char *names[3] = {"alpha", "beta", "gamma"};
  for (int n = 0; n < 3; n++) {
    check(exp[n], cnt[n], "critical(%s) counter", names[n]);
    check(0, overlaps[n], "critical(%s) overlaps", names[n]);
  }
  check(T * (PER / 10), nested_cnt, "nested critical(alpha)/critical(beta) counter");
  check(T * (PER / 10), unnamed_cnt, "unnamed critical counter");
  return failures != 0;
}
