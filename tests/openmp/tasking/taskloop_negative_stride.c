// Checks taskloop with negative strides and negative bounds (int and long, step -1/-3/-7, collapse with a descending inner loop, pointer-free): each iteration once, lastprivate of the last logical iteration.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_negative_stride.c"

#include "omp_check.h"

int main(int argc, char **argv)
{
  (void)argv;
  int lo = -50 + argc - 1;
  static int hit[301];
  long s = 0;
  int last = 0, cnt2 = 0;
  long sl = 0, cntl = 0;
#pragma omp parallel shared(hit, s, last, cnt2, sl, cntl) firstprivate(lo)
#pragma omp single
  {
#pragma omp taskloop grainsize(9)
    for (int i = 250; i >= lo; i--)
      hit[i + 50]++;
#pragma omp taskloop num_tasks(5) reduction(+ : s) lastprivate(last)
    for (int i = 100; i > -100; i -= 3) {
      s += i;
      last = i;
    }
#pragma omp taskloop collapse(2) reduction(+ : cnt2) grainsize(4)
    for (int i = 10; i > 0; i -= 2)
      for (int j = -1; j >= -9; j -= 4)
        cnt2 += (i > 0 && j < 0);
#pragma omp taskloop reduction(+ : sl, cntl) grainsize(100)
    for (long i = 3000000000L; i > -3000000000L; i -= 7000000L) {
      sl += i / 1000000;
      cntl++;
    }
  }
  int bad = 0;
  for (int k = 0; k <= 300; k++)
    bad += hit[k] != 1;
  EXPECT(0, bad, "descending iterations not hit exactly once");
  long es = 0;
  int elast = 0;
  for (int i = 100; i > -100; i -= 3) {
    es += i;
    elast = i;
  }
  EXPECT(es, s, "sum over step -3");
  EXPECT(elast, last, "lastprivate of step -3 loop");
  EXPECT(15, cnt2, "collapse(2) of descending loops");
  long esl = 0, ecntl = 0;
  for (long i = 3000000000L; i > -3000000000L; i -= 7000000L) {
    esl += i / 1000000;
    ecntl++;
  }
  EXPECT(ecntl, cntl, "long loop with large negative stride: count");
  EXPECT(esl, sl, "long loop with large negative stride: sum");
  return failures != 0;
}
