// Checks iterator dependences: depend(iterator(i=0:n), in/out/mutexinoutset: a[i]) with runtime n, strided and 2-D iterators, and an empty iterator range, against per-element writer/reader tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_iterator.c"

#include "omp_check.h"

#define N 24
#define ROUNDS 30

int main(int argc, char **argv)
{
  (void)argv;
  int n = N + argc - 1; /* runtime trip count */
  int a[N];
  int g[4][6];
  memset(a, 0, sizeof a);
  memset(g, 0, sizeof g);
  int bad = 0, empty_ran = 0;
#pragma omp parallel shared(a, g, bad, empty_ran) firstprivate(n)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    long sum = -1, sum2 = -1, sumg = -1;
    int zero = n - N; /* 0 at run time, not a constant */
    (void)zero;       /* GCC 12 does not count uses in iterator bounds */
    for (int i = 0; i < n; i++) {
#pragma omp task depend(out : a[i]) shared(a) firstprivate(i)
      {
        spin(150 * (i % 6));
        a[i] = i + r;
      }
    }
    /* fan-in through an iterator over all elements */
#pragma omp task depend(iterator(i = 0 : n), in : a[i]) shared(a, sum)
    {
      long s = 0;
      for (int i = 0; i < N; i++)
        s += a[i];
      sum = s;
    }
    /* strided iterator writer: even elements; must wait for the reader above */
#pragma omp task depend(iterator(i = 0 : n : 2), out : a[i]) shared(a)
    for (int i = 0; i < N; i += 2)
      a[i] = -1;
    /* per-element readers after it */
    for (int i = 0; i < n; i++) {
#pragma omp task depend(in : a[i]) shared(a, bad) firstprivate(i)
      {
        int expect = (i % 2 == 0) ? -1 : i + r;
        if (a[i] != expect) {
#pragma omp atomic
          bad++;
        }
      }
    }
    /* iterator with mutexinoutset (new layout) on odd elements plus a plain in */
#pragma omp task depend(iterator(i = 1 : n : 2), mutexinoutset : a[i]) depend(in : a[0]) shared(a)
    for (int i = 1; i < N; i += 2)
      a[i] += 1000;
#pragma omp task depend(iterator(i = 0 : n), in : a[i]) shared(a, sum2)
    {
      long s = 0;
      for (int i = 0; i < N; i++)
        s += a[i];
      sum2 = s;
    }
    /* 2-D iterator */
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 6; j++) {
#pragma omp task depend(out : g[i][j]) shared(g) firstprivate(i, j)
        {
          spin(100);
          g[i][j] = i * 6 + j + r;
        }
      }
#pragma omp task depend(iterator(i = 0 : 4, j = 0 : 6), in : g[i][j]) shared(g, sumg)
    {
      long s = 0;
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
          s += g[i][j];
      sumg = s;
    }
    /* empty iterator range: no dependences at all */
#pragma omp task depend(iterator(i = 0 : zero), inout : a[i]) shared(empty_ran)
    {
#pragma omp atomic
      empty_ran++;
    }
#pragma omp taskwait
    long odd = 0;
    for (int i = 1; i < N; i += 2)
      odd += i + r + 1000;
    EXPECT((long)N * (N - 1) / 2 + (long)N * r, sum, "round %d: iterator fan-in reader", r);
    EXPECT(odd - N / 2, sum2, "round %d: reader after strided and mutexinoutset iterator writers", r);
    EXPECT(24L * 23 / 2 + 24L * r, sumg, "round %d: 2-D iterator reader", r);
  }
  EXPECT(ROUNDS, empty_ran, "tasks with an empty iterator range that ran");
  EXPECT(0, bad, "per-element readers after iterator writer");
  return failures != 0;
}
