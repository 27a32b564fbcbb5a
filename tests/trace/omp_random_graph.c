/* A gcc -fopenmp program for in_place_edges_test: the single member of a
   team of `threads` spawns `fill` empty tasks (its throttle then runs its
   tasks in place when their dependences allow) and then `n` tasks on the
   eight words of y, each with no dependence, one (in, out or inout on one
   word) or two (in on one word, inout on another), chosen by a generator
   seeded with `seed`. Prints y's address and each task's shape
   ("t SHAPE A B", A and B word indices) in creation order, and checks
   that the tasks ran as their serial meaning (each word's writers in
   order, each reader after the writer before it). With `repeat` (per
   mille, 0 if not given), a task takes the shape and words of the one
   before it that often: runs of tasks alike, which trace format 11 records
   as a timed task and a task_inline_run when they run in place. Arguments:
   threads seed fill n [repeat]. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long g_state;
static long bad;
static void expect(int ok) {
  if (!ok)
    __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
}
static unsigned rnd(unsigned n) {
  g_state = g_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)((g_state >> 33) % n);
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  g_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  long fill = argc > 3 ? atol(argv[3]) : 300;
  long n = argc > 4 ? atol(argv[4]) : 200;
  unsigned repeat = argc > 5 ? (unsigned)atoi(argv[5]) : 0;
  long y[8] = {0}, seen[8] = {0};
  printf("y %p\n", (void *)y);
#pragma omp parallel num_threads(threads)
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
      /* writes[k]: the writers of word k spawned so far; a task expects
         y[k] to hold the number of writers before it. */
      long writes[8] = {0};
      unsigned shape = 0, a = 0, b = 0;
      for (long i = 0; i < n; ++i) {
        if (i == 0 || repeat == 0 || rnd(1000) >= repeat) {
          shape = rnd(5);
          a = rnd(8);
          b = (a + 1 + rnd(7)) % 8;
        }
        long wa = writes[a], wb = writes[b];
        printf("t %u %u %u\n", shape, a, b);
        switch (shape) {
        case 0:
#pragma omp task
        {
          volatile long sink = 0;
          (void)sink;
        } break;
        case 1:
#pragma omp task depend(in : y[a]) firstprivate(a, wa) shared(y)
          expect(y[a] == wa);
          break;
        case 2:
#pragma omp task depend(out : y[a]) firstprivate(a, wa) shared(y)
        {
          expect(y[a] == wa);
          y[a] = wa + 1;
        }
          ++writes[a];
          break;
        case 3:
#pragma omp task depend(inout : y[a]) firstprivate(a, wa) shared(y)
        {
          expect(y[a] == wa);
          y[a] = wa + 1;
        }
          ++writes[a];
          break;
        default:
#pragma omp task depend(in                                                     \
                        : y[a]) depend(inout                                   \
                                       : y[b]) firstprivate(a, b, wa, wb)      \
    shared(y)
        {
          expect(y[a] == wa && y[b] == wb);
          y[b] = wb + 1;
        }
          ++writes[b];
          break;
        }
      }
#pragma omp taskwait
      for (int k = 0; k < 8; ++k)
        seen[k] = writes[k] - y[k];
    }
  }
  for (int k = 0; k < 8; ++k)
    bad += seen[k] != 0;
  if (bad != 0) {
    fprintf(stderr, "omp_random_graph: %ld tasks out of order\n", bad);
    return 1;
  }
  return 0;
}
