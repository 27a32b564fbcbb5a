// Checks in/out/inout dependence ordering on one and two variables: readers after a writer, writers after all earlier readers (anti-dependence), writer after writer, using start/end event ticks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_in_out_inout.c"

#include "omp_check.h"

#define ROUNDS 60
enum { T_OUT0, T_IN1, T_IN2, T_IN3, T_INOUT4, T_INOUT5, T_IN6, T_OUT7, T_IN8, T_Y_OUT9, T_XY_IN10, NT };

static long st[NT], en[NT];
static int val[NT];

#define TASK_BODY(id, expr)                                                                        \
  {                                                                                                \
    st[id] = tick();                                                                               \
    spin(500 * ((id) % 3 + 1));                                                                    \
    expr;                                                                                          \
    en[id] = tick();                                                                               \
  }

static void before(int a, int b, int r)
{
  if (!(en[a] < st[b]))
    fail(en[a], st[b], "round %d: task %d must end before task %d starts (end tick vs start tick)", r, a, b);
}

int main(void)
{
  int x = 0, y = 0;
#pragma omp parallel shared(x, y)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
#pragma omp task depend(out : x) shared(x)
    TASK_BODY(T_OUT0, x = 1)
#pragma omp task depend(in : x) shared(x)
    TASK_BODY(T_IN1, val[T_IN1] = x)
#pragma omp task depend(in : x) shared(x)
    TASK_BODY(T_IN2, val[T_IN2] = x)
#pragma omp task depend(in : x) shared(x)
    TASK_BODY(T_IN3, val[T_IN3] = x)
#pragma omp task depend(inout : x) shared(x)
    TASK_BODY(T_INOUT4, x = x * 10)
#pragma omp task depend(inout : x) shared(x)
    TASK_BODY(T_INOUT5, x = x + 5)
#pragma omp task depend(in : x) shared(x)
    TASK_BODY(T_IN6, val[T_IN6] = x)
#pragma omp task depend(out : x) shared(x)
    TASK_BODY(T_OUT7, x = 100)
#pragma omp task depend(in : x) shared(x)
    TASK_BODY(T_IN8, val[T_IN8] = x)
#pragma omp task depend(out : y) shared(y)
    TASK_BODY(T_Y_OUT9, y = 7)
#pragma omp task depend(in : x, y) shared(x, y)
    TASK_BODY(T_XY_IN10, val[T_XY_IN10] = x + y)
#pragma omp taskwait
    EXPECT(1, val[T_IN1], "round %d: reader 1", r);
    EXPECT(1, val[T_IN2], "round %d: reader 2", r);
    EXPECT(1, val[T_IN3], "round %d: reader 3", r);
    EXPECT(15, val[T_IN6], "round %d: reader after two inouts", r);
    EXPECT(100, val[T_IN8], "round %d: reader after second out", r);
    EXPECT(107, val[T_XY_IN10], "round %d: reader of x and y", r);
    before(T_OUT0, T_IN1, r);
    before(T_OUT0, T_IN2, r);
    before(T_OUT0, T_IN3, r);
    before(T_IN1, T_INOUT4, r);
    before(T_IN2, T_INOUT4, r);
    before(T_IN3, T_INOUT4, r);
    before(T_INOUT4, T_INOUT5, r);
    before(T_INOUT5, T_IN6, r);
    before(T_IN6, T_OUT7, r);
    before(T_OUT7, T_IN8, r);
    before(T_OUT7, T_XY_IN10, r);
    before(T_Y_OUT9, T_XY_IN10, r);
  }
  return failures != 0;
}
