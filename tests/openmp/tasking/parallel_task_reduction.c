// Checks parallel reduction(task, +:x) (and *, max) where explicit tasks created by every thread use in_reduction, combined with ordinary work on the reduction variable by the implicit tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "parallel_task_reduction.c"

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

int main(void)
{
  long x = 3, mx = -1;
  double p = 1.0;
  int nthreads = 0;
#pragma omp parallel reduction(task, + : x) reduction(task, max : mx) reduction(task, * : p) shared(nthreads)
  {
    int me = omp_get_thread_num();
#pragma omp single
    nthreads = omp_get_num_threads();
    x += 1; /* the implicit task's private copy */
    for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : x) in_reduction(max : mx) firstprivate(i, me)
      {
        x += i;
        long v = (long)me * 1000 + i;
        if (v > mx)
          mx = v;
      }
    }
#pragma omp single
    for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(* : p)
      p *= 2.0;
    }
  }
  EXPECT(3 + nthreads + (long)nthreads * 4950, x, "parallel task reduction + with %d threads", nthreads);
  EXPECT((long)(nthreads - 1) * 1000 + 99, mx, "parallel task reduction max");
  EXPECT(1, p == 1024.0, "parallel task reduction * == 1024");
  return failures != 0;
}
