// Checks firstprivate and lastprivate of C++ class objects on worksharing loops: every thread's copy is copy-constructed from the original, lastprivate assigns the last iteration's object, and every constructed copy is destroyed.
#include <omp.h>
#include <cstdio>

#include "ws_check.h"

#include <atomic>
#include <string>
#include <vector>

static std::atomic<int> live{0};

struct Tracked {
  std::string name;
  std::vector<int> data;
  int origin; /* which object it was copied from, for the check */
  Tracked() : name("default"), origin(-1) { ++live; }
  Tracked(const std::string &n, int o) : name(n), data(3, o), origin(o) { ++live; }
  Tracked(const Tracked &t) : name(t.name), data(t.data), origin(t.origin) { ++live; }
  Tracked &operator=(const Tracked &t) = default;
  ~Tracked() { --live; }
};

int main() {
  const int n = 300;
  for (int rep = 0; rep < 10; rep++) {
    Tracked orig("orig", 42);
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
#pragma omp for schedule(dynamic, 5) firstprivate(orig)
      for (int i = 0; i < n; i++) {
        /* The private copy starts as the original; this thread's earlier
           iterations only appended. */
        bad += orig.name != "orig" || orig.origin != 42 || orig.data.size() < 3 || orig.data[0] != 42;
        orig.data.push_back(i);
      }
    }
    CHECK(0, bad, "rep %d iterations seeing a wrong firstprivate object", rep);
    CHECK(3, (int)orig.data.size(), "rep %d original untouched by firstprivate", rep);

    Tracked last;
#pragma omp parallel
#pragma omp for schedule(guided) lastprivate(last)
    for (int i = 0; i < n; i++) {
      last.name = "iter" + std::to_string(i);
      last.data.assign(2, i);
      last.origin = i;
    }
    CHECK(1, last.name == "iter" + std::to_string(n - 1), "rep %d lastprivate name is the last iteration's", rep);
    CHECK(n - 1, last.origin, "rep %d lastprivate origin", rep);
    CHECK(2, (int)last.data.size(), "rep %d lastprivate data size", rep);
  }
  CHECK(0, live.load(), "objects alive at the end (constructions minus destructions)");
  return fails != 0;
}
