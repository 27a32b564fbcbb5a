// Checks long long loops with bounds beyond 32 bits (negative, step 2^30, downward) under static, dynamic, guided and runtime: every iteration once, chunk rules.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

typedef long long ll;

static void run(ll lo, int n, ll st) {
  ll hi = lo + (ll)n * st;
  int nthr = 0;
  char tag[80];
  snprintf(tag, sizeof tag, "lo=%lld n=%d step=%lld", lo, n, st);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for schedule(static, 2)
    for (ll i = lo; i < hi; i += st)
      record((int)((i - lo) / st), &myseq);
#pragma omp for schedule(dynamic, 3)
    for (ll i = lo; i < hi; i += st)
      record((int)((i - lo) / st), &myseq);
#pragma omp for schedule(guided)
    for (ll i = hi; i > lo; i -= st)
      record((int)((hi - i) / st), &myseq);
#pragma omp for schedule(runtime)
    for (ll i = hi; i > lo; i -= st)
      record((int)((hi - i) / st), &myseq);
  }
  for (int k = 0; k < n; k++)
    CHECK(4, cnt[k], "%s count[%d] over 4 loops", tag, k);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(dynamic, 5)
    for (ll i = lo; i < hi; i += st)
      record((int)((i - lo) / st), &myseq);
  }
  check_once(tag, n);
  check_chunks(tag, n, 5);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for schedule(static, 3)
    for (ll i = hi; i > lo; i -= st)
      record((int)((hi - i) / st), &myseq);
  }
  check_once(tag, n);
  check_round_robin(tag, n, 3, nthr);
}

int main(void) {
  volatile ll far = -(1LL << 50);
  static const int sizes[] = {0, 1, 7, 500};
  omp_set_schedule(omp_sched_guided, 2);
  for (int rep = 0; rep < 3; rep++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      run(far, sizes[s], 1);
      run(far, sizes[s], 1LL << 30);
      run(-far - 3, sizes[s], 1LL << 40);
      run(-17, sizes[s], 3);
    }
  return fails != 0;
}
