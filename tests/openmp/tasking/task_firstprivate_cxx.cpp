// Checks C++ firstprivate/private in tasks: copy constructors run at creation (value as of creation), default constructors for private, every constructed object is destroyed; std::vector/std::string/std::array copies are deep.
#include <omp.h>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NAME "task_firstprivate_cxx.cpp"

#include "omp_check.h"

#include <array>
#include <string>
#include <vector>

static long live;     // constructed minus destroyed
static long copies;   // copy-constructor calls
static long defaults; // default-constructor calls

struct Tracked {
  long value;
  long pad[16];
  Tracked() : value(-1), pad{} { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); __atomic_fetch_add(&defaults, 1, __ATOMIC_RELAXED); }
  explicit Tracked(long v) : value(v), pad{} { pad[15] = v; __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  Tracked(const Tracked &o) : value(o.value)
  {
    for (int i = 0; i < 16; i++)
      pad[i] = o.pad[i];
    __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&copies, 1, __ATOMIC_RELAXED);
  }
  Tracked &operator=(const Tracked &) = default;
  ~Tracked() { __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED); }
};

int main()
{
  const int N = 300;
  int bad = 0;
  {
#pragma omp parallel shared(bad)
#pragma omp single
    {
      Tracked t(0);
      std::vector<int> vec(100, 0);
      std::string str = "start";
      std::array<long, 64> arr{};
      for (int r = 0; r < N; r++) {
        t.value = r;
        t.pad[15] = r;
        vec.assign(100 + r % 7, r);
        str = "round-" + std::to_string(r);
        arr.fill(r);
#pragma omp task firstprivate(t, vec, str, arr, r) shared(bad)
        {
          int e = 0;
          e += t.value != r || t.pad[15] != r;
          e += vec.size() != size_t(100 + r % 7);
          for (int x : vec)
            e += x != r;
          e += str != "round-" + std::to_string(r);
          for (long x : arr)
            e += x != r;
          vec.push_back(-1); // mutate the private copies
          str += "!";
          t.value = -2;
          if (e) {
#pragma omp atomic
            bad += e;
          }
        }
        vec[0] = -3; // mutate the originals after creation
        str = "changed";
      }
#pragma omp task private(t) shared(bad)
      {
        if (t.value != -1) {
#pragma omp atomic
          bad += 1000;
        }
      }
#pragma omp taskwait
      EXPECT(N - 1, t.value, "original object after tasks modified their copies");
    }
  }
  EXPECT(0, bad, "mismatches inside tasks");
  EXPECT(0, live, "live Tracked objects after all tasks (constructed - destroyed)");
  if (copies < N)
    EXPECT(N, copies, "at least one copy construction per firstprivate task (got fewer)");
  if (defaults < 1)
    EXPECT(1, defaults, "default construction for private(t) (got fewer)");
  return failures != 0;
}
