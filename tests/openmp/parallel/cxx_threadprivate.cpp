// Checks C++ threadprivate: a namespace-scope trivially-constructible struct with member functions and a static data member of a class are per-thread, persist across two regions with the same team, and copyin copies the primary thread's values.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

struct Counter {
  long n;
  int owner;
  void bump(long by) { n += by; }
};

struct Holder {
  static int value;
#pragma omp threadprivate(value)
};
int Holder::value = 0;

static Counter ctr = {0, -1};
#pragma omp threadprivate(ctr)

int main()
{
  omp_set_dynamic(0);
  const int T = 4;
  for (int rep = 0; rep < 30; rep++) {
    ctr.n = 0;
    ctr.owner = -1;
    Holder::value = 77 + rep;
    int bad_copyin = 0, bad_persist = 0;
#pragma omp parallel num_threads(T) copyin(ctr, Holder::value) reduction(+ : bad_copyin)
    {
      int t = omp_get_thread_num();
      bad_copyin += ctr.n != 0 || ctr.owner != -1 || Holder::value != 77 + rep;
      ctr.owner = t;
      for (int i = 0; i <= t; i++)
        ctr.bump(10);
      Holder::value = t * 2;
    }
#pragma omp parallel num_threads(T) reduction(+ : bad_persist)
    {
      int t = omp_get_thread_num();
      bad_persist += ctr.owner != t || ctr.n != 10L * (t + 1) || Holder::value != t * 2;
    }
    check(0, bad_copyin, "rep %d: threads without the copied-in values", rep);
    check(0, bad_persist, "rep %d: threads whose threadprivate values did not persist", rep);
    check(10, ctr.n, "rep %d: primary thread's counter", rep);
    check(0, Holder::value, "rep %d: primary thread's static member", rep);
  }
  return failures != 0;
}
