// Checks combined parallel for with num_threads, if(0), run-time bounds, private/firstprivate/lastprivate/reduction clauses, 200 times in a row: every iteration once, team sizes and clause values right.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 300
static int hits[N];

int main(void) {
  volatile int vn = N;
  int n = vn;
  for (int rep = 0; rep < 200; rep++) {
    for (int i = 0; i < N; i++)
      hits[i] = 0;
    int team = 0, last = -1, base = rep, wrong = 0;
    long long sum = 0;
    /* Run-time bounds: GOMP_parallel + a loop start inside. */
#pragma omp parallel for num_threads(3) schedule(dynamic, 4) firstprivate(base) lastprivate(last) reduction(+ : sum, wrong)
    for (int i = 0; i < n; i++) {
#pragma omp atomic write
      team = omp_get_num_threads();
#pragma omp atomic
      hits[i]++;
      wrong += base != rep;
      last = i;
      sum += i;
    }
    CHECK(3, team, "rep %d num_threads(3) team size", rep);
    CHECK(n - 1, last, "rep %d lastprivate", rep);
    CHECK((long long)n * (n - 1) / 2, sum, "rep %d reduction", rep);
    CHECK(0, wrong, "rep %d iterations with a wrong firstprivate", rep);

    /* if(0): a team of one. Constant bounds: the combined entry point. */
#pragma omp parallel for if (0) schedule(guided)
    for (int i = 0; i < N; i++) {
#pragma omp atomic write
      team = omp_get_num_threads();
#pragma omp atomic
      hits[i]++;
    }
    CHECK(1, team, "rep %d if(0) team size", rep);
    for (int i = 0; i < N; i++)
      CHECK(2, hits[i], "rep %d count[%d]", rep, i);
  }
  return fails != 0;
}
