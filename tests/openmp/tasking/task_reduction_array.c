// Checks task reductions over array sections and whole arrays (task_reduction(+: h[0:N]), in_reduction on the same section) building a histogram, plus a max reduction on an array element section.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_reduction_array.c"

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

#define NB 16
#define N 4000

int main(void)
{
  long hist[NB];
  int peak[4] = {-1, -1, -1, -1};
  memset(hist, 0, sizeof hist);
  long total = 0;
#pragma omp parallel shared(hist, peak, total)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : hist[0 : NB]) task_reduction(max : peak[0 : 4]) task_reduction(+ : total)
  for (int chunk = 0; chunk < N; chunk += 100) {
#pragma omp task in_reduction(+ : hist[0 : NB]) in_reduction(max : peak[0 : 4]) in_reduction(+ : total) firstprivate(chunk)
    for (int i = chunk; i < chunk + 100; i++) {
      int v = (int)((i * 2654435761u) >> 7) % 1000;
      hist[v % NB] += 1;
      total += v;
      if (v > peak[i % 4])
        peak[i % 4] = v;
    }
  }
  long eh[NB], et = 0;
  int ep[4] = {-1, -1, -1, -1};
  memset(eh, 0, sizeof eh);
  for (int i = 0; i < N; i++) {
    int v = (int)((i * 2654435761u) >> 7) % 1000;
    eh[v % NB]++;
    et += v;
    if (v > ep[i % 4])
      ep[i % 4] = v;
  }
  for (int b = 0; b < NB; b++)
    EXPECT(eh[b], hist[b], "histogram bin %d", b);
  for (int k = 0; k < 4; k++)
    EXPECT(ep[k], peak[k], "max of residue class %d", k);
  EXPECT(et, total, "total");
  return failures != 0;
}
