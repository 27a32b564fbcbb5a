// Checks task reductions with user-defined reductions (declare reduction with initializer and combiner) on a struct (count/sum/min/max) and on a 2-vector, plus a UDR with an omp_priv initializer function.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_reduction_udr.c"

static int failures;

/* Print "FAIL <file>: <what> expected <x> got <y>" (first 10 only) and remember the failure. */
__attribute__((format(printf, 3, 4))) static void fail(long long exp, long long got, const char *fmt, ...)
{
  int n;
#pragma omp atomic capture
  n = failures++;
  if (n >= 10)
    return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", NAME, what, exp, got);
}

#define EXPECT(exp, got, ...)                                                                      \
  do {                                                                                             \
    long long e_ = (long long)(exp), g_ = (long long)(got);                                        \
    if (e_ != g_)                                                                                  \
      fail(e_, g_, __VA_ARGS__);                                                                   \
  } while (0)

/* Busy work to widen race windows; never used to decide pass/fail. */
static inline void spin(int n)
{
  for (volatile int i = 0; i < n; i++) {
  }
}

/* Global event counter: ordering checks compare ticks (end of A < start of B). */
static long seq_counter;
static inline long tick(void) { return __atomic_fetch_add(&seq_counter, 1, __ATOMIC_SEQ_CST); }

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
