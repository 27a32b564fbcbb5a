// Checks fan-out/fan-in graphs: one writer feeding 200 readers, fan-in through an inout after all readers (anti-dependence), and a two-level reduction tree of tasks joined by dependences.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_fanout_fanin.c"

#include "omp_check.h"

#define W 200
#define ROUNDS 20

int main(void)
{
  int src = 0;
  long part[W];
  long sum = 0;
  int bad = 0;
#pragma omp parallel shared(src, part, sum, bad)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    long total = -1, tree = -1;
    int readers = 0;
#pragma omp task depend(out : src) shared(src)
    {
      spin(2000);
      src = r + 3;
    }
    for (int i = 0; i < W; i++) {
#pragma omp task depend(in : src) depend(out : part[i]) shared(src, part, readers) firstprivate(i)
      {
        spin(50 * (i % 9));
        part[i] = (long)src * i;
#pragma omp atomic
        readers++;
      }
    }
    /* fan-in on src: an inout waits for all 200 readers */
#pragma omp task depend(inout : src) shared(src, readers, bad)
    {
      int n;
#pragma omp atomic read
      n = readers;
      if (n != W)
        bad++;
      src = -1;
    }
    /* tree fan-in over part[]: groups of 10, then the 20 group sums */
    long grp[W / 10];
    for (int g = 0; g < W / 10; g++) {
#pragma omp task depend(iterator(k = 0 : 10), in : part[g * 10 + k]) depend(out : grp[g]) shared(part, grp) firstprivate(g)
      {
        long s = 0;
        for (int k = 0; k < 10; k++)
          s += part[g * 10 + k];
        grp[g] = s;
      }
    }
#pragma omp task depend(iterator(g = 0 : W / 10), in : grp[g]) shared(grp, tree)
    {
      long s = 0;
      for (int g = 0; g < W / 10; g++)
        s += grp[g];
      tree = s;
    }
#pragma omp taskwait
    total = 0;
    for (int i = 0; i < W; i++)
      total += part[i];
    long expect = (long)(r + 3) * W * (W - 1) / 2;
    EXPECT(expect, total, "round %d: sum of reader results", r);
    EXPECT(expect, tree, "round %d: tree fan-in result", r);
    EXPECT(-1, src, "round %d: fan-in writer ran", r);
    sum += tree;
  }
  EXPECT(0, bad, "rounds where the fan-in inout ran before all readers");
  return failures != 0;
}
