// Checks doacross with collapse: collapse(2) ordered(2) and collapse(2) ordered(3) with sinks on earlier iterations in every dimension, under static chunk, dynamic and guided: sinks wait for sources; results match the sequential nest.
#include <omp.h>
#include <stdio.h>

#include "doacross_wave.h"

#define NK 2
static int done3[NI][NJ][NK], late3;

int main(void) {
  reset();
#pragma omp parallel
#pragma omp for collapse(2) ordered(2) schedule(static, 3)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      {
        need(i - 1, j);
        need(i, j - 1);
      }
      body(i, j, 0);
#pragma omp ordered depend(source)
    }
  check("collapse(2) ordered(2) static,3", 0);

  reset();
#pragma omp parallel
#pragma omp for collapse(2) ordered(2) schedule(dynamic)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      {
        need(i - 1, j);
        need(i, j - 1);
      }
      body(i, j, 0);
#pragma omp ordered depend(source)
    }
  check("collapse(2) ordered(2) dynamic", 0);

  /* Three loops, the outer two collapsed: sink on (i, j-1, k) and (i-1, j, k). */
  late3 = 0;
#pragma omp parallel
#pragma omp for collapse(2) ordered(3) schedule(guided)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) {
#pragma omp ordered depend(sink : i, j - 1, k) depend(sink : i - 1, j, k)
        {
          int a = 1, b = 1;
          if (j > 0) {
#pragma omp atomic read
            a = done3[i][j - 1][k];
          }
          if (i > 0) {
#pragma omp atomic read
            b = done3[i - 1][j][k];
          }
          if (!a || !b) {
#pragma omp atomic
            late3++;
          }
        }
#pragma omp atomic
        done3[i][j][k]++;
#pragma omp ordered depend(source)
      }
  CHECK(0, late3, "collapse(2) ordered(3): iterations that passed a sink before its source");
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        CHECK(1, done3[i][j][k], "collapse(2) ordered(3) count[%d][%d][%d]", i, j, k);
  return fails != 0;
}
