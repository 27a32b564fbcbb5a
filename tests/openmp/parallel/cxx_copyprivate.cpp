// Checks single copyprivate of C++ class types (std::string, std::vector<int>, a user class with a counting copy assignment): every thread receives the executing thread's values via copy assignment.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <string>
#include <vector>

struct Tracked {
  int v = -1;
  static int assigns;
  Tracked() = default;
  Tracked(const Tracked &o) : v(o.v) {}
  Tracked &operator=(const Tracked &o)
  {
    v = o.v;
#pragma omp atomic
    assigns++;
    return *this;
  }
};
int Tracked::assigns = 0;

int main()
{
  omp_set_dynamic(0);
  const int T = 4, ITERS = 200;
  int bad = 0;
  Tracked::assigns = 0;
#pragma omp parallel num_threads(T) reduction(+ : bad)
  {
    for (int i = 0; i < ITERS; i++) {
      std::string s;
      std::vector<int> v;
      Tracked tr;
#pragma omp single copyprivate(s, v, tr)
      {
        s = "iteration-" + std::to_string(i) + std::string(static_cast<size_t>(i % 40), 'x');
        v.assign(static_cast<size_t>(i % 17 + 1), i);
        tr.v = i * 3;
      }
      bad += s != "iteration-" + std::to_string(i) + std::string(static_cast<size_t>(i % 40), 'x');
      bad += v.size() != static_cast<size_t>(i % 17 + 1);
      for (int x : v)
        bad += x != i;
      bad += tr.v != i * 3;
    }
  }
  check(0, bad, "(thread, iteration) mismatches after copyprivate");
  /* the T-1 receiving threads get the value by copy assignment, at least once each per single */
  check(1, Tracked::assigns >= (T - 1) * ITERS, "copy assignments used by copyprivate (%d)", Tracked::assigns);
  return failures != 0;
}
