// Checks C++ worksharing loops over random-access iterators (std::vector, std::deque, pointers; <, != and reverse iterators) under static, dynamic and guided: every element visited once.
#include <omp.h>
#include <cstdio>

#include "ws_check.h"

#include <atomic>
#include <deque>
#include <vector>

int main() {
  for (int n : {0, 1, 2, 17, 1000}) {
    std::vector<std::atomic<int>> v(n);
    std::deque<int> dq(n);
    for (int rep = 0; rep < 3; rep++) {
      for (auto &a : v)
        a = 0;
#pragma omp parallel
      {
#pragma omp for schedule(dynamic, 3)
        for (auto it = v.begin(); it < v.end(); ++it)
          ++*it;
#pragma omp for schedule(static, 2)
        for (auto it = v.begin(); it != v.end(); ++it)
          ++*it;
#pragma omp for schedule(guided)
        for (auto it = v.rbegin(); it != v.rend(); ++it)
          ++*it;
#pragma omp for schedule(static)
        for (std::atomic<int> *p = v.data(); p < v.data() + n; p += 1)
          ++*p;
#pragma omp for schedule(dynamic)
        for (auto it = dq.begin(); it < dq.end(); it += 1)
          *it = static_cast<int>(it - dq.begin()) * 2;
      }
      for (int i = 0; i < n; i++) {
        CHECK(4, v[i].load(), "n=%d count[%d] over four iterator loops", n, i);
        CHECK(2 * i, dq[i], "n=%d deque element %d", n, i);
      }
    }
  }
  return fails != 0;
}
