// Checks nested taskloops (a taskloop in the body of a taskloop, two and three levels, with reductions at each level) compute the right sums and visit each cell once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_nested.c"

#include "omp_check.h"

int main(void)
{
  static int grid[30][40];
  long total = 0, t3 = 0;
#pragma omp parallel shared(grid, total, t3)
#pragma omp single
  {
#pragma omp taskloop grainsize(3) reduction(+ : total)
    for (int i = 0; i < 30; i++) {
      long row = 0;
#pragma omp taskloop grainsize(7) reduction(+ : row)
      for (int j = 0; j < 40; j++) {
        grid[i][j]++;
        row += i * 40 + j;
      }
      total += row;
    }
#pragma omp taskloop num_tasks(3) reduction(+ : t3)
    for (int i = 0; i < 6; i++) {
#pragma omp taskloop num_tasks(2) reduction(+ : t3)
      for (int j = 0; j < 6; j++) {
#pragma omp taskloop grainsize(2) reduction(+ : t3)
        for (int k = 0; k < 6; k++)
          t3 += 1;
      }
    }
  }
  int bad = 0;
  for (int i = 0; i < 30; i++)
    for (int j = 0; j < 40; j++)
      bad += grid[i][j] != 1;
  EXPECT(0, bad, "cells not visited exactly once");
  EXPECT(1200L * 1199 / 2, total, "nested taskloop reduction");
  EXPECT(216, t3, "three-level taskloop reduction");
  return failures != 0;
}
