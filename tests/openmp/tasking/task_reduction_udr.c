// Checks task reductions with user-defined reductions (declare reduction with initializer and combiner) on a struct (count/sum/min/max) and on a 2-vector, plus a UDR with an omp_priv initializer function.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_reduction_udr.c"

#include "omp_check.h"

struct stats {
  long count, sum, lo, hi;
};

static void stats_init(struct stats *s)
{
  s->count = 0;
  s->sum = 0;
  s->lo = 1L << 40;
  s->hi = -(1L << 40);
}
static void stats_merge(struct stats *out, const struct stats *in)
{
  out->count += in->count;
  out->sum += in->sum;
  if (in->lo < out->lo)
    out->lo = in->lo;
  if (in->hi > out->hi)
    out->hi = in->hi;
}
#pragma omp declare reduction(merge:struct stats : stats_merge(&omp_out, &omp_in)) initializer(stats_init(&omp_priv))

struct vec2 {
  double x, y;
};
#pragma omp declare reduction(vadd:struct vec2 : omp_out.x += omp_in.x, omp_out.y += omp_in.y) initializer(omp_priv = (struct vec2){0, 0})

int main(void)
{
  struct stats st;
  stats_init(&st);
  struct vec2 v = {1.0, 2.0};
#pragma omp parallel shared(st, v)
#pragma omp single
#pragma omp taskgroup task_reduction(merge : st) task_reduction(vadd : v)
  for (int i = 0; i < 300; i++) {
#pragma omp task in_reduction(merge : st) firstprivate(i)
    {
      long val = (i * 7919L) % 1009 - 500;
      st.count++;
      st.sum += val;
      if (val < st.lo)
        st.lo = val;
      if (val > st.hi)
        st.hi = val;
    }
    if (i % 3 == 0) {
#pragma omp task in_reduction(vadd : v) firstprivate(i)
      {
        v.x += 1.0;
        v.y += 0.5;
      }
    }
  }
  long esum = 0, elo = 1L << 40, ehi = -(1L << 40);
  for (int i = 0; i < 300; i++) {
    long val = (i * 7919L) % 1009 - 500;
    esum += val;
    elo = val < elo ? val : elo;
    ehi = val > ehi ? val : ehi;
  }
  EXPECT(300, st.count, "UDR count");
  EXPECT(esum, st.sum, "UDR sum");
  EXPECT(elo, st.lo, "UDR min");
  EXPECT(ehi, st.hi, "UDR max");
  EXPECT(1, v.x == 101.0 && v.y == 52.0, "vec2 UDR (x,y) == (101,52)");
  return failures != 0;
}
