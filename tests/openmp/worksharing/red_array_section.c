// Checks array reductions: reduction(+:a[0:N]) histograms on for, parallel for and parallel, a partial section a[2:5], max over a section, and whole-array reduction(+:arr): every element equals the sequential result.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 16
#define ITERS 2000

static int bin(int i) { return (i * 13 + i / 7) % N; }

int main(void) {
  int ehist[N] = {0};
  for (int i = 0; i < ITERS; i++)
    ehist[bin(i)]++;

  for (int rep = 0; rep < 10; rep++) {
    int a[N], b[N], c[N], m[4], whole[N];
    long d[N];
    for (int k = 0; k < N; k++)
      a[k] = b[k] = c[k] = whole[k] = k, d[k] = 0;
    for (int k = 0; k < 4; k++)
      m[k] = -1;

#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 8) reduction(+ : a[0:N])
      for (int i = 0; i < ITERS; i++)
        a[bin(i)]++;
      /* Only elements 2..6 are reduced; the others stay shared and are not
         touched. */
#pragma omp for schedule(static) reduction(+ : b[2:5])
      for (int i = 0; i < ITERS; i++)
        b[2 + i % 5] += 2;
#pragma omp for schedule(guided) reduction(max : m[0:4])
      for (int i = 0; i < ITERS; i++)
        m[i % 4] = m[i % 4] > (i * 31) % 1000 ? m[i % 4] : (i * 31) % 1000;
#pragma omp for reduction(+ : whole)
      for (int i = 0; i < ITERS; i++)
        whole[bin(i)] += 3;
    }
#pragma omp parallel for schedule(dynamic) reduction(+ : c[:N], d[1:N - 1])
    for (int i = 0; i < ITERS; i++) {
      c[bin(i)] -= 1;
      if (bin(i) > 0)
        d[bin(i)] += 1L << 33;
    }
    /* Reduction on a parallel region: each thread adds 1 to every element. */
    int e[N] = {0}, nthr = 0;
#pragma omp parallel reduction(+ : e[0:N])
    {
#pragma omp single nowait
      nthr = omp_get_num_threads();
      for (int k = 0; k < N; k++)
        e[k] += k + 1;
    }

    int em[4] = {-1, -1, -1, -1};
    for (int i = 0; i < ITERS; i++)
      em[i % 4] = em[i % 4] > (i * 31) % 1000 ? em[i % 4] : (i * 31) % 1000;
    for (int k = 0; k < N; k++) {
      CHECK(k + ehist[k], a[k], "rep %d for a[0:N] element %d", rep, k);
      CHECK(k >= 2 && k < 7 ? k + 2 * (ITERS / 5) : k, b[k], "rep %d for b[2:5] element %d", rep, k);
      CHECK(k + 3 * ehist[k], whole[k], "rep %d whole-array element %d", rep, k);
      CHECK(k - ehist[k], c[k], "rep %d parallel for c[:N] element %d", rep, k);
      CHECK(k > 0 ? (long)ehist[k] << 33 : 0, d[k], "rep %d parallel for d[1:N-1] element %d", rep, k);
      CHECK(nthr * (k + 1), e[k], "rep %d parallel e[0:N] element %d", rep, k);
    }
    for (int k = 0; k < 4; k++)
      CHECK(em[k], m[k], "rep %d max over m[0:4] element %d", rep, k);
  }
  return fails != 0;
}
