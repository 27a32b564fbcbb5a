// Checks a C++ parallel region using lambdas, per-thread std::vector results and a std::map guarded by critical: every thread's contribution arrives exactly once and matches a sequential computation.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <map>
#include <numeric>
#include <string>
#include <vector>

int main()
{
  omp_set_dynamic(0);
  const int T = 4, N = 500;
  for (int rep = 0; rep < 20; rep++) {
    std::vector<std::vector<long>> per(T);
    std::map<int, std::string> names;
    long total = 0;
    auto square = [](long x) { return x * x; };
#pragma omp parallel num_threads(T) shared(per, names, total, square)
    {
      int t = omp_get_thread_num();
      std::vector<long> mine;
      for (int i = t; i < N; i += T)
        mine.push_back(square(i));
      long s = std::accumulate(mine.begin(), mine.end(), 0L);
      per[t] = std::move(mine);
#pragma omp critical(map_insert)
      {
        names[t] = "thread-" + std::to_string(t);
        total += s;
      }
    }
    long expect = 0;
    for (long i = 0; i < N; i++)
      expect += i * i;
    check(expect, total, "rep %d: total of squares", rep);
    check(T, (long long)names.size(), "rep %d: map entries", rep);
    for (int t = 0; t < T; t++) {
      check(0, names[t].compare("thread-" + std::to_string(t)), "rep %d: map entry %d", rep, t);
      long cnt = 0;
      for (int i = t; i < N; i += T)
        cnt++;
      check(cnt, (long long)per[t].size(), "rep %d: vector size of thread %d", rep, t);
      for (size_t j = 0; j < per[t].size(); j++)
        check((long long)(t + (long)j * T) * (t + (long)j * T), per[t][j], "rep %d: thread %d element %zu", rep, t, j);
    }
  }
  return failures != 0;
}
