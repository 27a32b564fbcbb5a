// Checks mutexinoutset: tasks of one set never overlap (in-flight counter), are ordered after earlier in/out tasks and before later ones; two sets on different variables and a task in both sets.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_mutexinoutset.c"

#include "omp_check.h"

#define ROUNDS 30
#define M 8

static int inflight_x, inflight_y;
static int max_x, max_y;

static void enter(int *inflight, int *maxv)
{
  int n = __atomic_add_fetch(inflight, 1, __ATOMIC_SEQ_CST);
  int old = __atomic_load_n(maxv, __ATOMIC_RELAXED);
  while (n > old && !__atomic_compare_exchange_n(maxv, &old, n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}
static void leave(int *inflight) { __atomic_sub_fetch(inflight, 1, __ATOMIC_SEQ_CST); }

int main(void)
{
  long x = 0, y = 0;
  int bad_order = 0;
#pragma omp parallel shared(x, y, bad_order)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    long reader_before = -1, reader_after = -1, reader_y = -1;
    long st_out = 0, en_out = 0, en_reader_before = 0, st_reader_after = 0;
    long st_mx[M + 1], en_mx[M + 1];
#pragma omp task depend(out : x) shared(x, st_out, en_out)
    {
      st_out = tick();
      spin(2000);
      x = 1;
      en_out = tick();
    }
#pragma omp task depend(in : x) shared(x, reader_before, en_reader_before)
    {
      spin(2000);
      reader_before = x;
      en_reader_before = tick();
    }
    for (int k = 0; k < M; k++) {
#pragma omp task depend(mutexinoutset : x) shared(x, st_mx, en_mx) firstprivate(k)
      {
        enter(&inflight_x, &max_x);
        st_mx[k] = tick();
        long v = x; /* plain read-modify-write: safe only under mutual exclusion */
        spin(1500);
        x = v + (k + 1);
        en_mx[k] = tick();
        leave(&inflight_x);
      }
#pragma omp task depend(mutexinoutset : y) shared(y)
      {
        enter(&inflight_y, &max_y);
        long v = y;
        spin(1000);
        y = v + 1;
        leave(&inflight_y);
      }
    }
    /* a task in both sets: exclusive with every member of both */
#pragma omp task depend(mutexinoutset : x, y) shared(x, y, st_mx, en_mx)
    {
      enter(&inflight_x, &max_x);
      enter(&inflight_y, &max_y);
      st_mx[M] = tick();
      long vx = x, vy = y;
      spin(1000);
      x = vx + 1000;
      y = vy + 1000;
      en_mx[M] = tick();
      leave(&inflight_y);
      leave(&inflight_x);
    }
#pragma omp task depend(in : x) shared(x, reader_after, st_reader_after)
    {
      st_reader_after = tick();
      reader_after = x;
    }
#pragma omp task depend(in : y) shared(y, reader_y)
    reader_y = y;
#pragma omp taskwait
    EXPECT(1, reader_before, "round %d: reader before the set", r);
    EXPECT(1 + M * (M + 1) / 2 + 1000, reader_after, "round %d: reader after the set", r);
    EXPECT((long)(r + 1) * (M + 1000), reader_y, "round %d: y after the y set", r);
    for (int k = 0; k <= M; k++) {
      if (!(en_out < st_mx[k]) || !(en_reader_before < st_mx[k]) || !(en_mx[k] < st_reader_after))
        bad_order++;
    }
    (void)st_out;
  }
  EXPECT(1, max_x, "max tasks of the x mutexinoutset set in flight at once");
  EXPECT(1, max_y, "max tasks of the y mutexinoutset set in flight at once");
  EXPECT(0, bad_order, "mutexinoutset tasks not ordered against in/out tasks");
  return failures != 0;
}
