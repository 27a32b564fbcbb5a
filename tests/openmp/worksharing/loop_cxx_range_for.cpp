// Checks OpenMP 5.0 range-based for loops under worksharing (for, parallel for; vector, array, static, dynamic, guided schedules): every element visited once.
#include <omp.h>
#include <cstdio>

#include "ws_check.h"

#include <array>
#include <atomic>
#include <vector>

int main() {
  for (int n : {0, 1, 3, 64, 999}) {
    std::vector<std::atomic<int>> v(n);
    std::vector<int> w(n);
    for (int rep = 0; rep < 3; rep++) {
      for (auto &a : v)
        a = 0;
#pragma omp parallel
      {
#pragma omp for schedule(dynamic, 4)
        for (auto &a : v)
          ++a;
#pragma omp for schedule(guided)
        for (auto &a : v)
          ++a;
#pragma omp for schedule(static)
        for (auto &a : v)
          ++a;
      }
#pragma omp parallel for schedule(dynamic)
      for (auto &a : v)
        ++a;
      for (int i = 0; i < n; i++)
        w[i] = i;
      long long sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static, 7)
      for (int x : w)
        sum += x;
      for (int i = 0; i < n; i++)
        CHECK(4, v[i].load(), "n=%d count[%d] over four range-for loops", n, i);
      CHECK((long long)n * (n - 1) / 2, sum, "n=%d range-for reduction", n);
    }
  }
  std::array<std::atomic<int>, 50> arr{};
#pragma omp parallel
#pragma omp for schedule(dynamic, 3)
  for (auto &a : arr)
    ++a;
  for (int i = 0; i < 50; i++)
    CHECK(1, arr[i].load(), "std::array count[%d]", i);
  return fails != 0;
}
