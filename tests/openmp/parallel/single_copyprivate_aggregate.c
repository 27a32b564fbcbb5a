/* Checks single copyprivate of aggregates: an int array, a struct with an array and a double, and threadprivate-free mixed lists are broadcast intact to all threads in each of 200 singles (team of 4 and 7). */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#define ITERS 200

struct rec {
  int id;
  double w;
  short vals[10];
  char tag[8];
};

static void run(int k)
{
  int bad = 0, team = 0;
#pragma omp parallel num_threads(k) shared(bad, team)
  {
#pragma omp atomic
    team++;
    for (int i = 0; i < ITERS; i++) {
      int arr[32];
      struct rec r;
      long scalar;
      for (int j = 0; j < 32; j++)
        arr[j] = -1;
      r.id = -1;
#pragma omp single copyprivate(arr, r, scalar)
      {
        for (int j = 0; j < 32; j++)
          arr[j] = i * 32 + j;
        r.id = i;
        r.w = i * 0.25;
        for (int j = 0; j < 10; j++)
          r.vals[j] = (short)(i - j);
        for (int j = 0; j < 7; j++)
          r.tag[j] = (char)('A' + (i + j) % 26);
        r.tag[7] = 0;
        scalar = -i;
      }
      int good = r.id == i && r.w == i * 0.25 && r.tag[7] == 0 && scalar == -i;
      for (int j = 0; j < 32; j++)
        good = good && arr[j] == i * 32 + j;
      for (int j = 0; j < 10; j++)
        good = good && r.vals[j] == (short)(i - j);
      for (int j = 0; j < 7; j++)
        good = good && r.tag[j] == (char)('A' + (i + j) % 26);
      if (!good) {
#pragma omp atomic
        bad++;
      }
    }
  }
  check(k, team, "team of %d: size", k);
  check(0, bad, "team of %d: (thread, single) pairs with a wrong broadcast", k);
}

int main(void)
{
  omp_set_dynamic(0);
  run(4);
  run(7);
  return failures != 0;
}
