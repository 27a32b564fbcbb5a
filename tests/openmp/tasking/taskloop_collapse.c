// Checks taskloop collapse(2) and collapse(3) (with non-unit steps, grainsize and num_tasks): every (i,j[,k]) combination runs exactly once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_collapse.c"

#include "omp_check.h"

int main(int argc, char **argv)
{
  (void)argv;
  int ni = 37 + argc - 1, nj = 23, nk = 5;
  static int hit2[40][30], hit3[20][12][6];
  int bad = 0;
#pragma omp parallel shared(hit2, hit3) firstprivate(ni, nj, nk)
#pragma omp single
  {
#pragma omp taskloop collapse(2) grainsize(13)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        hit2[i][j]++;
#pragma omp taskloop collapse(3) num_tasks(17)
    for (int i = 1; i < 20; i += 3)
      for (int j = 11; j >= 0; j -= 2)
        for (int k = 0; k < nk; k++)
          hit3[i][j][k]++;
  }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 30; j++)
      bad += hit2[i][j] != (i < ni && j < nj);
  EXPECT(0, bad, "collapse(2) cells not hit exactly once");
  bad = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 12; j++)
      for (int k = 0; k < 6; k++) {
        int in = (i >= 1 && (i - 1) % 3 == 0) && (j % 2 == 1) && k < nk;
        bad += hit3[i][j][k] != in;
      }
  EXPECT(0, bad, "collapse(3) cells not hit exactly the expected number of times");
  return failures != 0;
}
