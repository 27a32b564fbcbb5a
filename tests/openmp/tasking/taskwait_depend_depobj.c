// Checks taskwait with depend(depobj:) (new depend-array layout on GOMP_taskwait_depend), with iterator dependences, and with several in/out items, each waiting only for the matching sibling tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "taskwait_depend_depobj.c"

#include "omp_check.h"

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
