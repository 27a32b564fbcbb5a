// Checks that dependences only order sibling tasks: children of different parents (and a child vs its own parent) with the same depend address are independent (a wrong cross-parent edge deadlocks via a detached task), while siblings are ordered.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_nested_siblings.c"

#include "omp_check.h"

#define ROUNDS 40

int main(void)
{
  int x = 0;   /* used only as a dependence address */
  int tok = 0; /* orders A before B */
  int bad = 0;
  (void)x; /* GCC 12 does not count depend-clause uses */
  (void)tok;
#pragma omp parallel shared(x, tok, bad)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    omp_event_handle_t published = (omp_event_handle_t)0;
    int xa = 0, xb = 0, a_seen = -1, b_seen = -1;
#pragma omp taskgroup
    {
#pragma omp task depend(out : tok) shared(x, published, xa, a_seen)
      {
        omp_event_handle_t e1 = (omp_event_handle_t)0;
        /* a1 completes only when B's child fulfils e1 */
#pragma omp task depend(out : x) detach(e1) shared(xa)
        {
          spin(1000);
          xa = 1;
        }
        published = e1;
#pragma omp task depend(in : x) shared(xa, a_seen)
        a_seen = xa; /* sibling of a1: ordered after it, so after the fulfilment */
      }
#pragma omp task depend(in : tok) shared(x, published, xb, b_seen)
      {
        omp_event_handle_t e1 = published;
        /* not a sibling of a1: must not wait for it (it would wait forever) */
#pragma omp task depend(inout : x) firstprivate(e1) shared(xb)
        {
          xb = 2;
          omp_fulfill_event(e1);
        }
#pragma omp task depend(in : x) shared(xb, b_seen)
        b_seen = xb;
      }
    }
    EXPECT(1, a_seen, "round %d: A's second child saw its sibling's write", r);
    EXPECT(2, b_seen, "round %d: B's second child saw its sibling's write", r);

    /* a child with the same dependence as its (still running) parent */
    int pc = 0;
#pragma omp task depend(inout : x) shared(pc, x)
    {
      int c = 0;
#pragma omp task depend(inout : x) shared(c)
      c = 5;
#pragma omp task depend(in : x) shared(c, pc)
      pc = c;
#pragma omp taskwait
    }
#pragma omp task depend(in : x) shared(pc, bad)
    if (pc != 5) {
#pragma omp atomic
      bad++;
    }
#pragma omp taskwait
  }
  EXPECT(0, bad, "rounds where the parent's successor ran before the children's results");
  return failures != 0;
}
