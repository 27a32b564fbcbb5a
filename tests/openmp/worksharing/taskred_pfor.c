// Checks reduction(task, +: x) on combined parallel for (constant and run-time bounds, dynamic and static), iterations adding directly and through in_reduction tasks: results equal the sequential total.
#include <omp.h>
#include <stdio.h>

static int fails;
/* Compare integers; on mismatch report "FAIL <file>: <what> expected <x> got <y>". */
#define CHECK(exp, got, ...)                                                   \
  do {                                                                         \
    long long e_ = (long long)(exp), g_ = (long long)(got);                    \
    if (e_ != g_ && fails++ < 10) {                                            \
      char w_[160];                                                            \
      snprintf(w_, sizeof w_, __VA_ARGS__);                                    \
      fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", __FILE_NAME__,  \
              w_, e_, g_);                                                     \
    }                                                                          \
  } while (0)

#define N 300

int main(void) {
  volatile int vn = N;
  int n = vn;
  long long e = 0;
  for (int i = 0; i < N; i++)
    e += 1 + 2L * i;
  for (int rep = 0; rep < 10; rep++) {
    long long x = 0, y = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(task, + : x)
    for (int i = 0; i < N; i++) {
      x += 1;
#pragma omp task in_reduction(+ : x)
      x += 2L * i;
    }
    CHECK(e, x, "rep %d parallel for dynamic, constant bounds", rep);
#pragma omp parallel for schedule(static) reduction(task, + : y)
    for (int i = 0; i < n; i++) {
#pragma omp task in_reduction(+ : y)
      y += 1 + 2L * i;
    }
    CHECK(e, y, "rep %d parallel for static, run-time bounds", rep);
  }
  return fails != 0;
}
