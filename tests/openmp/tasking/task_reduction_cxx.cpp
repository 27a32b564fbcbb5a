// Checks C++ task reductions: a user-defined reduction on a class holding a std::vector (initializer from omp_orig), a reduction on std::complex via UDR, and that every private copy is destroyed (constructed == destroyed).
#include <omp.h>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NAME "task_reduction_cxx.cpp"

static int failures;

/* Print "FAIL <file>: <what> expected <x> got <y>" (first 10 only) and remember the failure. */
__attribute__((format(printf, 3, 4))) static void fail(long long exp, long long got, const char *fmt, ...)
{
  int n;
#pragma omp atomic capture
  n = failures++;
  if (n >= 10)
    return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", NAME, what, exp, got);
}

#define EXPECT(exp, got, ...)                                                                      \
  do {                                                                                             \
    long long e_ = (long long)(exp), g_ = (long long)(got);                                        \
    if (e_ != g_)                                                                                  \
      fail(e_, g_, __VA_ARGS__);                                                                   \
  } while (0)

/* Busy work to widen race windows; never used to decide pass/fail. */
static inline void spin(int n)
{
  for (int i = 0; i < n; i++)
    __asm__ __volatile__("" ::: "memory");
}

/* Global event counter: ordering checks compare ticks (end of A < start of B). */
static long seq_counter;
static inline long tick(void) { return __atomic_fetch_add(&seq_counter, 1, __ATOMIC_SEQ_CST); }

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
