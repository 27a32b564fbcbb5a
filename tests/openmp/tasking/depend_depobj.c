// Checks depobj: init with inout/in/out/mutexinoutset, update of the kind, destroy and re-init, several depobjs in one clause, and depend(depobj:) mixed with plain dependences, against plain in/out tasks.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "depend_depobj.c"

#include "omp_check.h"

#define ROUNDS 40

static int inflight, max_inflight;

int main(void)
{
  int x = 0, y = 0, z = 0;
  int cells[4] = {0, 0, 0, 0};
  omp_depend_t ox, oy, oc0, oc1, oc2, oc3; /* GCC 12 rejects depend(depobj: arr[k]) */
#pragma omp depobj(ox) depend(inout : x)
#pragma omp depobj(oy) depend(in : y)
#pragma omp depobj(oc0) depend(out : cells[0])
#pragma omp depobj(oc1) depend(out : cells[1])
#pragma omp depobj(oc2) depend(out : cells[2])
#pragma omp depobj(oc3) depend(out : cells[3])
#pragma omp parallel shared(x, y, z, cells, ox, oy, oc0, oc1, oc2, oc3)
#pragma omp single
  for (int r = 0; r < ROUNDS; r++) {
    int seen[8] = {0};
    /* ox is inout: writer chain */
#pragma omp depobj(ox) update(inout)
#pragma omp task depend(depobj : ox) shared(x)
    {
      spin(2000);
      x = 10;
    }
#pragma omp task depend(in : x) shared(x, seen)
    seen[0] = x;
    /* ox as "in": readers that must wait for the writer above and precede the next writer */
#pragma omp depobj(ox) update(in)
#pragma omp task depend(depobj : ox) shared(x, seen)
    {
      spin(1000);
      seen[1] = x;
    }
#pragma omp task depend(depobj : ox) shared(x, seen)
    {
      spin(1000);
      seen[2] = x;
    }
#pragma omp task depend(out : x) shared(x)
    x = 20;
    /* ox as mutexinoutset: exclusive increments */
#pragma omp depobj(ox) update(mutexinoutset)
    for (int k = 0; k < 4; k++) {
#pragma omp task depend(depobj : ox) shared(x)
      {
        int n = __atomic_add_fetch(&inflight, 1, __ATOMIC_SEQ_CST);
        if (n > __atomic_load_n(&max_inflight, __ATOMIC_SEQ_CST))
          __atomic_store_n(&max_inflight, n, __ATOMIC_SEQ_CST);
        int v = x;
        spin(1000);
        x = v + 1;
        __atomic_sub_fetch(&inflight, 1, __ATOMIC_SEQ_CST);
      }
    }
#pragma omp task depend(in : x) shared(x, seen)
    seen[3] = x;
    /* destroy and re-create ox, now as "out" */
#pragma omp depobj(ox) destroy
#pragma omp depobj(ox) depend(out : x)
#pragma omp task depend(depobj : ox) shared(x)
    x = 30;
#pragma omp task depend(inout : x) shared(x, seen)
    seen[4] = x++;
    /* oy (in) combined with a plain out dependence in one task */
#pragma omp task depend(out : y) shared(y)
    {
      spin(1000);
      y = r;
    }
#pragma omp task depend(depobj : oy) depend(out : z) shared(y, z)
    z = y + 1;
#pragma omp task depend(in : z) shared(z, seen)
    seen[5] = z;
    /* several depobjs in one clause: waits for all four element writers */
    for (int k = 0; k < 4; k++) {
#pragma omp task depend(out : cells[k]) shared(cells) firstprivate(k)
      {
        spin(500 * k);
        cells[k] = r + k;
      }
    }
#pragma omp task depend(depobj : oc0, oc1, oc2, oc3) shared(cells, seen)
    seen[6] = cells[0] + cells[1] + cells[2] + cells[3];
#pragma omp taskwait
    EXPECT(10, seen[0], "round %d: plain reader after depobj(inout) writer", r);
    EXPECT(10, seen[1], "round %d: depobj(in) reader 1", r);
    EXPECT(10, seen[2], "round %d: depobj(in) reader 2", r);
    EXPECT(24, seen[3], "round %d: reader after depobj(mutexinoutset) set", r);
    EXPECT(30, seen[4], "round %d: after destroy and re-init as out", r);
    EXPECT(r + 1, seen[5], "round %d: depobj(in) combined with plain out", r);
    EXPECT(4 * r + 6, seen[6], "round %d: four depobjs in one clause", r);
    EXPECT(31, x, "round %d: x at end", r);
  }
  EXPECT(1, max_inflight, "max mutexinoutset (via depobj) tasks in flight");
#pragma omp depobj(ox) destroy
#pragma omp depobj(oy) destroy
#pragma omp depobj(oc0) destroy
#pragma omp depobj(oc1) destroy
#pragma omp depobj(oc2) destroy
#pragma omp depobj(oc3) destroy
  return failures != 0;
}
