// Checks collapse(3) loops (mixed steps and directions, unsigned long long outer) under static chunk, dynamic, guided and nonmonotonic dynamic: every (i,j,k) once, static chunks round robin over the collapsed space.
#include <omp.h>
#include <stdio.h>

#include "loop_record.h"

static void run(int a, int b, int c) {
  int n = a * b * c, nthr = 0;
  char tag[48];
  snprintf(tag, sizeof tag, "%dx%dx%d", a, b, c);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp single
    nthr = omp_get_num_threads();
#pragma omp for collapse(3) schedule(static, 5)
    for (int i = 0; i < a; i++)
      for (int j = 0; j < b; j++)
        for (int k = 0; k < c; k++)
          record((i * b + j) * c + k, &myseq);
  }
  check_once(tag, n);
  check_round_robin(tag, n, 5, nthr);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(3) schedule(dynamic, 3)
    for (int i = a - 1; i >= 0; i--)
      for (int j = 0; j < 2 * b; j += 2)
        for (int k = -c; k < 0; k++)
          record(((a - 1 - i) * b + j / 2) * c + (k + c), &myseq);
  }
  check_once(tag, n);
  check_chunks(tag, n, 3);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(3) schedule(guided)
    for (unsigned long long i = 0; i < (unsigned long long)a; i++)
      for (int j = 0; j < b; j++)
        for (long k = 0; k < c; k++)
          record((int)((i * (unsigned long long)b + (unsigned long long)j) * (unsigned long long)c + (unsigned long long)k), &myseq);
  }
  check_once(tag, n);

  reset(n);
#pragma omp parallel
  {
    int myseq = 0;
#pragma omp for collapse(3) schedule(nonmonotonic:dynamic)
    for (int i = 0; i < a; i++)
      for (int j = 0; j < b; j++)
        for (int k = 0; k < c; k++)
          record((i * b + j) * c + k, &myseq);
  }
  check_once(tag, n);
}

int main(void) {
  static const int dims[][3] = {{0, 3, 3}, {3, 0, 3}, {3, 3, 0}, {1, 1, 1}, {2, 3, 4}, {7, 1, 9}, {10, 11, 12}};
  for (int rep = 0; rep < 3; rep++)
    for (unsigned d = 0; d < sizeof dims / sizeof dims[0]; d++)
      run(dims[d][0], dims[d][1], dims[d][2]);
  return fails != 0;
}
