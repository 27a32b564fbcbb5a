// Checks taskloop collapse(2) and collapse(3) (with non-unit steps, grainsize and num_tasks): every (i,j[,k]) combination runs exactly once.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskloop_collapse.c"

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

int main(int argc, char **argv)
{
  (void)argv;
  int ni = 37 + argc - 1, nj = 23, nk = 5;
  static int hit2[40][30], hit3[20][12][6];
  int bad = 0;
#pragma omp parallel shared(hit2, hit3) firstprivate(ni, nj, nk)
#pragma omp single
  {
#pragma omp taskloop collapse(2) grainsize(13)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++)
        hit2[i][j]++;
#pragma omp taskloop collapse(3) num_tasks(17)
    for (int i = 1; i < 20; i += 3)
      for (int j = 11; j >= 0; j -= 2)
        for (int k = 0; k < nk; k++)
          hit3[i][j][k]++;
  }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 30; j++)
      bad += hit2[i][j] != (i < ni && j < nj);
  EXPECT(0, bad, "collapse(2) cells not hit exactly once");
  bad = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 12; j++)
      for (int k = 0; k < 6; k++) {
        int in = (i >= 1 && (i - 1) % 3 == 0) && (j % 2 == 1) && k < nk;
        bad += hit3[i][j][k] != in;
      }
  EXPECT(0, bad, "collapse(3) cells not hit exactly the expected number of times");
  return failures != 0;
}
