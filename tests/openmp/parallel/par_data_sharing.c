/* Checks data-sharing on parallel: firstprivate scalars/arrays/structs are per-thread copies initialised from the original, private and allocate()-d copies are distinct per thread, shared writes are visible after the region and originals of private copies are unchanged. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define T 4

struct S {
  int a[8];
  double d;
  char name[6];
};

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 50; rep++) {
    int fp = 7 + rep;
    int arr[16];
    struct S s = {{0}, 1.5, "weft"};
    for (int i = 0; i < 16; i++)
      arr[i] = i * i;
    for (int i = 0; i < 8; i++)
      s.a[i] = 100 + i;
    int priv = -99;
    int ok[T] = {0}, distinct[T] = {0};
    int *orig_fp = &fp;
    int *addr[T] = {0};
    int shared_sum = 0;
#pragma omp parallel num_threads(T) default(none) firstprivate(fp, arr, s) private(priv) \
    allocate(omp_default_mem_alloc : priv) shared(ok, distinct, addr, shared_sum, orig_fp, rep)
    {
      int t = omp_get_thread_num();
      int good = fp == 7 + rep && s.d == 1.5 && s.name[0] == 'w' && s.name[4] == 0;
      for (int i = 0; i < 16; i++)
        good = good && arr[i] == i * i;
      for (int i = 0; i < 8; i++)
        good = good && s.a[i] == 100 + i;
      priv = 1000 * t;
      fp += t;
      arr[t] = -t;
      s.a[t] = -t;
      s.d += t;
      addr[t] = &priv;
#pragma omp atomic
      shared_sum += t;
#pragma omp barrier
      /* after everybody wrote its copies, each thread still sees only its own writes */
      good = good && priv == 1000 * t && fp == 7 + rep + t && s.d == 1.5 + t;
      for (int i = 0; i < 16; i++)
        good = good && arr[i] == (i == t ? -t : i * i);
      for (int i = 0; i < 8; i++)
        good = good && s.a[i] == (i == t ? -t : 100 + i);
      ok[t] = good;
      distinct[t] = &fp != orig_fp;
      for (int j = 0; j < T; j++)
        if (j != t && addr[j] == &priv)
          distinct[t] = 0;
    }
    for (int t = 0; t < T; t++) {
      check(1, ok[t], "rep %d: thread %d private copies had the expected values", rep, t);
      check(1, distinct[t], "rep %d: thread %d copies have distinct addresses", rep, t);
    }
    check(T * (T - 1) / 2, shared_sum, "rep %d: shared sum", rep);
    check(7 + rep, fp, "rep %d: original firstprivate scalar unchanged", rep);
    check(-99, priv, "rep %d: original private scalar unchanged", rep);
    for (int i = 0; i < 16; i++)
      check(i * i, arr[i], "rep %d: original firstprivate array[%d] unchanged", rep, i);
    for (int i = 0; i < 8; i++)
      check(100 + i, s.a[i], "rep %d: original firstprivate struct a[%d] unchanged", rep, i);
    check(15, (long long)(s.d * 10), "rep %d: original firstprivate struct d*10 unchanged", rep);
  }
  return failures != 0;
}
