// Checks user-defined reductions (declare reduction) in C: a struct arg-max with tie-break, a pair sum with initializer, and gcd on int, on for, parallel for, sections and parallel: results equal the sequential fold.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

struct best {
  int value, index; /* largest value; smallest index among equals */
};
struct pair {
  long count;
  double total;
};

static struct best better(struct best a, struct best b) {
  if (a.value != b.value)
    return a.value > b.value ? a : b;
  return a.index < b.index ? a : b;
}

static int gcd(int a, int b) {
  while (b) {
    int t = a % b;
    a = b, b = t;
  }
  return a < 0 ? -a : a;
}

#pragma omp declare reduction(argmax : struct best : omp_out = better(omp_out, omp_in))        \
    initializer(omp_priv = (struct best){-2147483647 - 1, 2147483647})
#pragma omp declare reduction(pairsum : struct pair : omp_out.count += omp_in.count,           \
                              omp_out.total += omp_in.total) initializer(omp_priv = {0, 0.0})
#pragma omp declare reduction(gcd : int : omp_out = gcd(omp_out, omp_in)) initializer(omp_priv = 0)

#define N 5000
static int val(int i) { return (i * 7919) % 997; } /* max 996 is reached more than once */

int main(void) {
  struct best eb = {-2147483647 - 1, 2147483647};
  struct pair ep = {0, 0.0};
  for (int i = 0; i < N; i++) {
    eb = better(eb, (struct best){val(i), i});
    ep.count += 1, ep.total += val(i) * 0.5;
  }
  for (int rep = 0; rep < 10; rep++) {
    struct best b = {-2147483647 - 1, 2147483647}, b2 = b;
    struct pair p = {0, 0.0};
    int g = 0, g2 = 0;
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 7) reduction(argmax : b) reduction(pairsum : p)
      for (int i = 0; i < N; i++) {
        b = better(b, (struct best){val(i), i});
        p.count += 1, p.total += val(i) * 0.5;
      }
#pragma omp sections reduction(gcd : g)
      {
#pragma omp section
        g = gcd(g, 84 * (rep + 1));
#pragma omp section
        g = gcd(g, 120 * (rep + 1));
#pragma omp section
        g = gcd(g, 36 * (rep + 1));
      }
    }
    CHECK(eb.value, b.value, "rep %d argmax value", rep);
    CHECK(eb.index, b.index, "rep %d argmax index (smallest among equals)", rep);
    CHECK(ep.count, p.count, "rep %d pairsum count", rep);
    CHECK(1, ep.total == p.total, "rep %d pairsum total exact", rep);
    CHECK(12 * (rep + 1), g, "rep %d gcd over sections", rep);

#pragma omp parallel for schedule(guided) reduction(argmax : b2) reduction(gcd : g2)
    for (int i = 0; i < N; i++) {
      b2 = better(b2, (struct best){val(i), i});
      g2 = gcd(g2, 6 * val(i));
    }
    CHECK(eb.value, b2.value, "rep %d parallel for argmax value", rep);
    CHECK(eb.index, b2.index, "rep %d parallel for argmax index", rep);
    CHECK(6, g2, "rep %d parallel for gcd", rep);

    /* On a parallel region: each thread offers its number. */
    struct best bt = {-1, -1};
    int nthr = 0;
#pragma omp parallel reduction(argmax : bt)
    {
#pragma omp single nowait
      nthr = omp_get_num_threads();
      bt = better(bt, (struct best){omp_get_thread_num() / 2, omp_get_thread_num()});
    }
    CHECK((nthr - 1) / 2, bt.value, "rep %d parallel argmax value (team %d)", rep, nthr);
    CHECK(((nthr - 1) / 2) * 2, bt.index, "rep %d parallel argmax index (team %d)", rep, nthr);
  }
  return fails != 0;
}
