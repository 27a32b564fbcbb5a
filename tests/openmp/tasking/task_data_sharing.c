// Checks implicit and explicit data-sharing of tasks: locals are firstprivate by default, variables shared in the enclosing context stay shared, private copies are independent, default(shared)/default(none)/default(firstprivate).
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_data_sharing.c"

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

static int global_counter;

int main(void)
{
  int outer_shared = 0;
  int seen[6] = {0};
#pragma omp parallel shared(outer_shared, seen)
  {
#pragma omp single
    {
      int local = 5; /* private to the implicit task: firstprivate in the task by default */
#pragma omp task shared(seen)
      {
        seen[0] = local;
        local = 99; /* own copy */
      }
      local = 6;
#pragma omp task /* outer_shared is shared in the enclosing context: stays shared */
      {
#pragma omp atomic
        outer_shared += 10;
#pragma omp atomic
        global_counter += 1;
      }
      int p = 1234;
#pragma omp task private(p) shared(seen)
      {
        p = 1; /* uninitialised private copy, written before use */
        seen[1] = p + 1;
      }
      int fp = 77;
#pragma omp task default(none) firstprivate(fp) shared(seen)
      seen[2] = fp;
      fp = 78;
      int dfp = 11;
#pragma omp task default(firstprivate) shared(seen)
      {
        seen[3] = dfp;
        dfp = 0;
      }
      int dsh = 0;
#pragma omp task default(shared)
      dsh = 21;
#pragma omp taskwait
      EXPECT(5, seen[0], "default firstprivate local captured at creation");
      EXPECT(6, local, "original local unaffected by task's copy");
      EXPECT(2, seen[1], "private copy");
      EXPECT(1234, p, "original of private variable unchanged");
      EXPECT(77, seen[2], "firstprivate under default(none)");
      EXPECT(11, seen[3], "default(firstprivate)");
      EXPECT(11, dfp, "original under default(firstprivate)");
      EXPECT(21, dsh, "default(shared) writes the original");
    }
  }
  EXPECT(10, outer_shared, "shared variable from enclosing context");
  EXPECT(1, global_counter, "global is shared");
  return failures != 0;
}
