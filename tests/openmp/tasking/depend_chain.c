// Checks long inout chains: 3000 tasks on one variable run strictly in creation order, and 4 interleaved chains over 4 variables each stay in order.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_chain.c"

#include "omp_check.h"

#define LEN 3000
#define LEN4 800

int main(void)
{
  long x = 0;
  long v[4] = {0, 0, 0, 0};
  int bad = 0, bad4 = 0;
#pragma omp parallel shared(x, v, bad, bad4)
#pragma omp single
  {
    for (int i = 0; i < LEN; i++) {
#pragma omp task depend(inout : x) shared(x, bad) firstprivate(i)
      {
        if (x != i)
          bad++; /* serialized by the chain */
        x = i + 1;
      }
    }
    for (int i = 0; i < LEN4; i++)
      for (int c = 0; c < 4; c++) {
#pragma omp task depend(inout : v[c]) shared(v, bad4) firstprivate(i, c)
        {
          if (v[c] != (long)i * (c + 1)) {
#pragma omp atomic
            bad4++;
          }
          v[c] += c + 1;
        }
      }
  }
  EXPECT(LEN, x, "end of the single chain");
  EXPECT(0, bad, "out-of-order tasks in the single chain");
  EXPECT(0, bad4, "out-of-order tasks in the interleaved chains");
  for (int c = 0; c < 4; c++)
    EXPECT((long)LEN4 * (c + 1), v[c], "end of chain %d", c);
  return failures != 0;
}
