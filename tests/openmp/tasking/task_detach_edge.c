// Checks detach edge cases: a task fulfilling its own event in its body, an undeferred (if(0)) detached task fulfilled by its body, detached tasks inside a final task (fulfilled by their bodies), and 48 detached tasks fulfilled in scrambled order then waited for with taskwait.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_detach_edge.c"

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

/* At most 64 * nthreads unfinished tasks: past that libgomp 12 runs new tasks undeferred, and an
   undeferred detached task waits for its fulfilment inside the construct, which here would only
   come later from the generating task (deadlock under libgomp with 1 thread and > ~65 tasks). */
#define MANY 48

int main(void)
{
  int self = 0, undeferred = 0, in_final = 0;
  static int many_ran[MANY];
  static omp_event_handle_t evs[MANY];
#pragma omp parallel shared(self, undeferred, in_final, many_ran, evs)
#pragma omp single
  {
    omp_event_handle_t ev = (omp_event_handle_t)0; /* set by the runtime at task creation */
#pragma omp task detach(ev) shared(self)
    {
      self = 1;
      omp_fulfill_event(ev); /* the task's own copy of the handle */
    }
#pragma omp taskwait
    EXPECT(1, self, "task that fulfilled its own event");

    /* undeferred: the encountering task resumes only after completion, i.e. after fulfilment */
    omp_event_handle_t ev2 = (omp_event_handle_t)0;
#pragma omp task detach(ev2) if (0) shared(undeferred)
    {
      undeferred = 1;
      omp_fulfill_event(ev2);
    }
    EXPECT(1, undeferred, "if(0) detached task fulfilled by its body");

    /* detached tasks inside a final task (included tasks) */
#pragma omp task final(1) shared(in_final)
    {
      omp_event_handle_t ev3 = (omp_event_handle_t)0;
#pragma omp task detach(ev3) shared(in_final)
      {
        in_final += 1;
        omp_fulfill_event(ev3);
      }
      EXPECT(1, in_final, "included detached task finished before its generator continued");
      /* Not tested: an included/undeferred detached task fulfilled by its generator afterwards.
         libgomp 12 waits for the fulfilment inside the task construct, so that deadlocks there. */
      omp_event_handle_t ev4 = (omp_event_handle_t)0;
#pragma omp task detach(ev4) shared(in_final)
      {
        in_final += 10;
        omp_fulfill_event(ev4);
      }
    }
#pragma omp taskwait
    EXPECT(11, in_final, "detached tasks inside a final task");

    for (int i = 0; i < MANY; i++) {
      omp_event_handle_t e = (omp_event_handle_t)0;
#pragma omp task detach(e) firstprivate(i) shared(many_ran)
      many_ran[i] = 1;
      evs[i] = e;
    }
    for (int i = 0; i < MANY; i++)
      omp_fulfill_event(evs[(i * 29) % MANY]); /* 29 is coprime with 48: a permutation */
#pragma omp taskwait
    int ran = 0;
    for (int i = 0; i < MANY; i++)
      ran += many_ran[i];
    EXPECT(MANY, ran, "detached tasks completed after scrambled fulfilment");
  }
  return failures != 0;
}
