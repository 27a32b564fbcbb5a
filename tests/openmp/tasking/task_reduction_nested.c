// Checks nested taskgroups with task reductions: in_reduction binds to the innermost taskgroup reducing that variable, inner results are folded into the outer reduction, different variables at different levels, and taskgroups nested inside participating tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_reduction_nested.c"

#include "omp_check.h"

int main(void)
{
  long a = 0, b = 0, inner_seen = -1;
  int c = 0;
#pragma omp parallel shared(a, b, c, inner_seen)
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+ : a)
    {
      for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : a) firstprivate(i)
        a += 1;
      }
      /* inner taskgroup reducing the same variable: its tasks bind to the inner one */
#pragma omp taskgroup task_reduction(+ : a)
      {
        for (int i = 0; i < 30; i++) {
#pragma omp task in_reduction(+ : a) firstprivate(i)
          a += 10;
        }
      }
      /* inner taskgroup reducing another variable, with a task in both reductions */
#pragma omp taskgroup task_reduction(+ : b)
      {
        for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(+ : a, b) firstprivate(i)
          {
            a += 100;
            b += i;
          }
        }
      }
      inner_seen = b; /* the inner reduction is complete here */
      /* a participating task that opens its own taskgroup reduction */
#pragma omp task in_reduction(+ : a) shared(c)
      {
        a += 1000;
#pragma omp taskgroup task_reduction(+ : c)
        for (int i = 0; i < 40; i++) {
#pragma omp task in_reduction(+ : c) firstprivate(i)
          c += 2;
        }
      }
    }
  }
  EXPECT(50 + 300 + 2000 + 1000, a, "outer reduction including nested contributions");
  EXPECT(190, b, "inner reduction of b");
  EXPECT(190, inner_seen, "b right after its taskgroup");
  EXPECT(80, c, "reduction opened inside a participating task");
  return failures != 0;
}
