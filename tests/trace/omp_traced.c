/* A gcc -fopenmp program for the trace tests: a parallel region of 2 whose
   single member spawns a diamond of dependent tasks, a taskwait, then the
   region's barrier. Checks its own result. With an argument n, n empty
   tasks first (enough to fill a worker's trace buffer before exit). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int x = 0, y = 0, z = 0, sum = 0;
  long extra = argc > 1 ? atol(argv[1]) : 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      for (long i = 0; i < extra; ++i) {
#pragma omp task firstprivate(i)
        {
          volatile long sink = i;
          (void)sink;
        }
      }
#pragma omp taskwait
#pragma omp task depend(out : x)
      x = 1;
#pragma omp task depend(in : x) depend(out : y)
      y = x + 1;
#pragma omp task depend(in : x) depend(out : z)
      z = x + 2;
#pragma omp task depend(in : y, z)
      sum = y + z;
#pragma omp taskwait
    }
  }
  if (sum != 5) {
    fprintf(stderr, "omp_traced: sum is %d, expected 5\n", sum);
    return 1;
  }
  return 0;
}
