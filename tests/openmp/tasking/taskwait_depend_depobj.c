// Checks taskwait with depend(depobj:) (new depend-array layout on GOMP_taskwait_depend), with iterator dependences, and with several in/out items, each waiting only for the matching sibling tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskwait_depend_depobj.c"

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

#define N 16
#define ROUNDS 40

int main(void)
{
  int x = 0, a[N];
  memset(a, 0, sizeof a);
  int bad = 0;
  omp_depend_t ox;
#pragma omp depobj(ox) depend(in : x)
#pragma omp parallel shared(x, a, bad, ox)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    omp_event_handle_t ev = (omp_event_handle_t)0; /* unrelated task kept incomplete */
    int y = 0;
#pragma omp task detach(ev) depend(out : y) shared(y)
    y = 1;
#pragma omp task depend(out : x) shared(x)
    {
      spin(2000);
      x = r;
    }
#pragma omp taskwait depend(depobj : ox)
    if (x != r)
      bad++;
    for (int i = 0; i < N; i++) {
#pragma omp task depend(out : a[i]) shared(a) firstprivate(i)
      {
        spin(100 * (i % 5));
        a[i] = r + i;
      }
    }
#pragma omp taskwait depend(iterator(i = 0 : N), in : a[i])
    for (int i = 0; i < N; i++)
      if (a[i] != r + i) {
        bad++;
        break;
      }
#pragma omp task depend(in : x) shared(x, a)
    {
      spin(1000);
      a[0] = x;
    }
#pragma omp taskwait depend(out : x) depend(in : a[0], a[1])
    if (a[0] != r)
      bad++;
    omp_fulfill_event(ev);
#pragma omp taskwait
    if (y != 1)
      bad++;
  }
  EXPECT(0, bad, "rounds where a taskwait depend returned before its predecessors finished");
#pragma omp depobj(ox) destroy
  return failures != 0;
}
