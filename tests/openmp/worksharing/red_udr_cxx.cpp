// Checks C++ user-defined reductions: std::vector element-wise sums (initializer from omp_orig's size), std::map merging, and + declared for a class with operator+, on for, parallel for and sections.
#include <omp.h>
#include <cstdio>

#include "ws_check.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

static void merge_into(std::map<std::string, int> &out, const std::map<std::string, int> &in) {
  for (const auto &kv : in)
    out[kv.first] += kv.second;
}

#pragma omp declare reduction(vadd : std::vector<long> : std::transform(omp_in.begin(), omp_in.end(), omp_out.begin(), omp_out.begin(), std::plus<long>())) \
    initializer(omp_priv = std::vector<long>(omp_orig.size(), 0))
#pragma omp declare reduction(merge : std::map<std::string, int> : merge_into(omp_out, omp_in)) \
    initializer(omp_priv = std::map<std::string, int>())

struct Stats {
  long n = 0;
  long sum = 0;
  long max = -1;
  Stats operator+(const Stats &o) const { return {n + o.n, sum + o.sum, std::max(max, o.max)}; }
  void add(long v) { n++, sum += v, max = std::max(max, v); }
  bool operator==(const Stats &o) const { return n == o.n && sum == o.sum && max == o.max; }
};
#pragma omp declare reduction(+ : Stats : omp_out = omp_out + omp_in)

static const char *const words[] = {"alpha", "beta", "gamma", "delta", "epsilon"};

int main() {
  const int n = 4000, bins = 9;
  std::vector<long> ev(bins, 0);
  std::map<std::string, int> em;
  Stats es;
  for (int i = 0; i < n; i++) {
    ev[i % bins] += i;
    em[words[(i * i) % 5]]++;
    es.add((i * 31) % 1009);
  }
  for (int rep = 0; rep < 5; rep++) {
    std::vector<long> v(bins, 0);
    std::map<std::string, int> m;
    Stats s;
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 10) reduction(vadd : v) reduction(merge : m)
      for (int i = 0; i < n; i++) {
        v[i % bins] += i;
        m[words[(i * i) % 5]]++;
      }
#pragma omp for schedule(guided) reduction(+ : s)
      for (int i = 0; i < n; i++)
        s.add((i * 31) % 1009);
    }
    CHECK(1, v == ev, "rep %d vector element-wise reduction equal", rep);
    CHECK(1, m == em, "rep %d map merge reduction equal", rep);
    CHECK(1, s == es, "rep %d Stats operator+ reduction equal", rep);
    CHECK(es.sum, s.sum, "rep %d Stats sum", rep);

    Stats s2;
    std::vector<long> v2(bins, 0);
#pragma omp parallel for schedule(static, 3) reduction(+ : s2) reduction(vadd : v2)
    for (int i = 0; i < n; i++) {
      s2.add((i * 31) % 1009);
      v2[i % bins] += i;
    }
    CHECK(1, s2 == es, "rep %d parallel for Stats equal", rep);
    CHECK(1, v2 == ev, "rep %d parallel for vector equal", rep);

    std::map<std::string, int> m3;
#pragma omp parallel sections reduction(merge : m3)
    {
#pragma omp section
      m3["x"] += 1;
#pragma omp section
      m3["y"] += 2;
#pragma omp section
      m3["x"] += 4;
    }
    CHECK(5, m3["x"], "rep %d sections map merge x", rep);
    CHECK(2, m3["y"], "rep %d sections map merge y", rep);
  }
  return fails != 0;
}
