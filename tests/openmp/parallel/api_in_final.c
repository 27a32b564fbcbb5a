/* Checks omp_in_final(): false in sequential code and implicit tasks, true inside a final(1) task and in tasks nested in it (included tasks), false inside a final(0) task. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  check(0, omp_in_final(), "sequential part");
  for (int rep = 0; rep < 50; rep++) {
    int implicit_bad = 0, in_final = -1, in_child = -1, in_grandchild = -1, not_final = -1, child_of_nonfinal = -1;
#pragma omp parallel num_threads(3) reduction(+ : implicit_bad)
    {
      implicit_bad += omp_in_final() != 0;
#pragma omp single
      {
        int one = rep >= 0, zero = rep < 0;
#pragma omp task final(one) shared(in_final, in_child, in_grandchild)
        {
          in_final = omp_in_final();
#pragma omp task shared(in_child, in_grandchild)
          {
            in_child = omp_in_final();
#pragma omp task shared(in_grandchild)
            in_grandchild = omp_in_final();
          }
#pragma omp taskwait
        }
#pragma omp task final(zero) shared(not_final, child_of_nonfinal)
        {
          not_final = omp_in_final();
#pragma omp task shared(child_of_nonfinal)
          child_of_nonfinal = omp_in_final();
#pragma omp taskwait
        }
#pragma omp taskwait
      }
    }
    check(0, implicit_bad, "rep %d: implicit tasks reporting final", rep);
    check(1, in_final, "rep %d: task with final(1)", rep);
    check(1, in_child, "rep %d: child of a final task", rep);
    check(1, in_grandchild, "rep %d: grandchild of a final task", rep);
    check(0, not_final, "rep %d: task with final(0)", rep);
    check(0, child_of_nonfinal, "rep %d: child of a final(0) task", rep);
  }
  return failures != 0;
}
