// Checks firstprivate capture of variable-length arrays (including a 2-D VLA) and of pointers vs pointees: the VLA contents are copied at creation, pointees are shared.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_firstprivate_vla.c"

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
  int n = 300 + argc, m = 7 + argc; /* runtime sizes */
  int bad = 0;
#pragma omp parallel shared(bad) firstprivate(n, m)
#pragma omp single
  {
    int vla[n];
    double grid[m][n];
    int *heap = malloc(sizeof(int) * n);
    for (int r = 0; r < 100; r++) {
      for (int k = 0; k < n; k++) {
        vla[k] = r * k;
        heap[k] = 0;
      }
      for (int i = 0; i < m; i++)
        for (int k = 0; k < n; k++)
          grid[i][k] = r + i * 0.5 + k;
#pragma omp task firstprivate(vla, grid, r, heap) shared(bad)
      {
        int e = 0;
        for (int k = 0; k < n; k++)
          e += vla[k] != r * k;
        for (int i = 0; i < m; i++)
          for (int k = 0; k < n; k++)
            e += grid[i][k] != r + i * 0.5 + k;
        vla[0] = -5; /* private copy */
        if (e) {
#pragma omp atomic
          bad += e;
        }
      }
      vla[1] = -7; /* change after creation: the task must not see it */
#pragma omp taskwait
      EXPECT(0, vla[0], "round %d: original VLA changed by task", r);
    }
    /* firstprivate pointer: the pointer is copied, the pointee is shared */
#pragma omp task firstprivate(heap)
    {
      for (int k = 0; k < n; k++)
        heap[k] = k + 1;
      heap = NULL;
    }
#pragma omp taskwait
    EXPECT(1, heap != NULL, "pointer original intact");
    long s = 0;
    for (int k = 0; k < n; k++)
      s += heap[k];
    EXPECT((long)n * (n + 1) / 2, s, "pointee written through firstprivate pointer");
    free(heap);
  }
  EXPECT(0, bad, "mismatching firstprivate VLA elements");
  return failures != 0;
}
