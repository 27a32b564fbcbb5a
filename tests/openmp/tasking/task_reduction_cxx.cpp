// Checks C++ task reductions: a user-defined reduction on a class holding a std::vector (initializer from omp_orig), a reduction on std::complex via UDR, and that every private copy is destroyed (constructed == destroyed).
#include <omp.h>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NAME "task_reduction_cxx.cpp"

#include "omp_check.h"

#include <complex>
#include <vector>

static long live;

struct Acc {
  std::vector<long> v;
  Acc() : v(8, 0) { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  explicit Acc(size_t n) : v(n, 0) { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  Acc(const Acc &o) : v(o.v) { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  Acc &operator=(const Acc &) = default;
  ~Acc() { __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED); }
  void merge(const Acc &o)
  {
    for (size_t i = 0; i < v.size(); i++)
      v[i] += o.v[i];
  }
};
#pragma omp declare reduction(accmerge:Acc : omp_out.merge(omp_in)) initializer(omp_priv = Acc(omp_orig.v.size()))

typedef std::complex<double> cplx;
#pragma omp declare reduction(cadd:cplx : omp_out += omp_in) initializer(omp_priv = cplx(0, 0))

int main()
{
  {
    Acc acc(8);
    cplx c(1.0, -1.0);
#pragma omp parallel shared(acc, c)
#pragma omp single
#pragma omp taskgroup task_reduction(accmerge : acc) task_reduction(cadd : c)
    for (int i = 0; i < 400; i++) {
#pragma omp task in_reduction(accmerge : acc) firstprivate(i)
      acc.v[i % 8] += i;
      if (i % 4 == 0) {
#pragma omp task in_reduction(cadd : c) firstprivate(i)
        c += cplx(0.5, 1.0);
      }
    }
    for (int k = 0; k < 8; k++) {
      long e = 0;
      for (int i = k; i < 400; i += 8)
        e += i;
      EXPECT(e, acc.v[k], "vector UDR element %d", k);
    }
    EXPECT(1, c == cplx(51.0, 99.0), "complex UDR == (51,99)");
    EXPECT(1, live, "Acc objects alive after the reduction (only the original)");
  }
  EXPECT(0, live, "Acc objects alive at the end");
  return failures != 0;
}
