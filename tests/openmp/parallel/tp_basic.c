/* Checks threadprivate variables (scalar, array, struct): each thread has its own copy, values persist between two consecutive regions with the same team size and dyn-var false, and thread 0's copy is the sequential one. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4

static int tp_i = -1;
static long tp_a[8];
struct st {
  int id;
  double d;
};
static struct st tp_s = {-1, -1.0};
#pragma omp threadprivate(tp_i, tp_a, tp_s)

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 30; rep++) {
    int addr_dup = 0, bad = 0, team = 0;
    void *addrs[T];
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
      tp_i = t * 10 + rep;
      for (int j = 0; j < 8; j++)
        tp_a[j] = t * 100 + j + rep;
      tp_s.id = t;
      tp_s.d = t + 0.5;
      addrs[t] = &tp_i;
#pragma omp barrier
      for (int u = 0; u < T; u++)
        if (u != t && addrs[u] == (void *)&tp_i) {
#pragma omp atomic
          addr_dup++;
        }
    }
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      team++;
      int good = tp_i == t * 10 + rep && tp_s.id == t && tp_s.d == t + 0.5;
      for (int j = 0; j < 8; j++)
        good = good && tp_a[j] == t * 100 + j + rep;
      if (!good) {
#pragma omp atomic
        bad++;
      }
    }
    check(T, team, "rep %d: team size", rep);
    check(0, addr_dup, "rep %d: threads sharing a threadprivate address", rep);
    check(0, bad, "rep %d: threads whose threadprivate values did not persist", rep);
    check(rep, tp_i, "rep %d: sequential copy is thread 0's (tp_i)", rep);
    check(7 + rep, tp_a[7], "rep %d: sequential copy is thread 0's (tp_a[7])", rep);
    check(0, tp_s.id, "rep %d: sequential copy is thread 0's (tp_s.id)", rep);
  }
  return failures != 0;
}
