// Checks C++ exceptions inside parallel regions: exceptions thrown and caught within the same thread (in the region body, inside single, inside critical, in nested calls) never escape the structured block and leave the team and counts intact.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <stdexcept>
#include <string>

static void thrower(int depth, int code)
{
  if (depth == 0)
    throw std::runtime_error("code " + std::to_string(code));
  thrower(depth - 1, code);
}

int main()
{
  omp_set_dynamic(0);
  const int T = 4, ITERS = 200;
  int caught = 0, single_caught = 0, crit_caught = 0, wrong = 0;
  long crit_counter = 0;
#pragma omp parallel num_threads(T) reduction(+ : caught, wrong)
  {
    int t = omp_get_thread_num();
    for (int i = 0; i < ITERS; i++) {
      try {
        thrower(i % 7, t * 1000 + i);
      } catch (const std::runtime_error &e) {
        caught++;
        wrong += std::string(e.what()) != "code " + std::to_string(t * 1000 + i);
      }
#pragma omp single
      {
        try {
          throw i;
        } catch (int v) {
          single_caught += v == i;
        }
      }
#pragma omp critical
      {
        try {
          crit_counter++;
          if (i % 3 == 0)
            throw std::logic_error("in critical");
        } catch (const std::logic_error &) {
          crit_caught++;
        }
      }
    }
  }
  check((long long)T * ITERS, caught, "exceptions caught in the region body");
  check(0, wrong, "exceptions with the wrong message");
  check(ITERS, single_caught, "exceptions caught inside single");
  check((long long)T * ((ITERS + 2) / 3), crit_caught, "exceptions caught inside critical");
  check((long long)T * ITERS, crit_counter, "critical counter");
  return failures != 0;
}
