// Checks reduction(task, +: x) on sections (GOMP_sections2_start) and parallel sections, with sections adding directly and through in_reduction tasks: results include every contribution.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

int main(void) {
  for (int rep = 0; rep < 50; rep++) {
    long x = rep, y = 0;
    double d = 0;
#pragma omp parallel
    {
#pragma omp sections reduction(task, + : x, d)
      {
#pragma omp section
        {
          x += 1;
#pragma omp task in_reduction(+ : x)
          x += 10;
        }
#pragma omp section
        {
          for (int k = 0; k < 5; k++) {
#pragma omp task in_reduction(+ : x, d)
            {
              x += 100;
              d += 0.5;
            }
          }
        }
#pragma omp section
        x += 1000;
      }
    }
    CHECK(rep + 1511, x, "rep %d sections task reduction", rep);
    CHECK(1, d == 2.5, "rep %d sections task reduction double exact", rep);

#pragma omp parallel sections reduction(task, + : y)
    {
#pragma omp section
      {
#pragma omp task in_reduction(+ : y)
        y += 2;
      }
#pragma omp section
      {
#pragma omp task in_reduction(+ : y)
        {
          y += 20;
#pragma omp task in_reduction(+ : y)
          y += 200;
        }
      }
    }
    CHECK(222, y, "rep %d parallel sections task reduction", rep);
  }
  return fails != 0;
}
