/* A gcc -fopenmp program for in_place_deps_test: one thread's single
   member spawns `fill` empty tasks (its throttle then runs its tasks in
   place) and then a chain of `chain` tasks, each depend(inout: y), which
   run in place once their predecessor has finished. Checks the chain ran
   in order. Arguments: fill chain. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long fill = argc > 1 ? atol(argv[1]) : 300;
  long chain = argc > 2 ? atol(argv[2]) : 64;
  long y = 0, bad = 0;
#pragma omp parallel num_threads(1)
  {
#pragma omp single
    {
      for (long i = 0; i < fill; ++i) {
#pragma omp task firstprivate(i)
        {
          volatile long sink = i;
          (void)sink;
        }
      }
      for (long i = 0; i < chain; ++i) {
#pragma omp task depend(inout : y) firstprivate(i) shared(y, bad)
        {
          if (y != i)
            ++bad;
          y = i + 1;
        }
      }
#pragma omp taskwait
    }
  }
  if (bad != 0 || y != chain) {
    fprintf(stderr, "omp_in_place_chain: y is %ld, %ld out of order\n", y, bad);
    return 1;
  }
  printf("y %p\n", (void *)&y);
  return 0;
}
