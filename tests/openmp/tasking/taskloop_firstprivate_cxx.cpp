// Checks C++ objects in taskloop clauses: firstprivate copies per generated task (copy constructor), lastprivate assignment from the last iteration, private default construction, and balanced construction/destruction.
#include <omp.h>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NAME "taskloop_firstprivate_cxx.cpp"

#include "omp_check.h"

#include <string>

static long live, copies, assigns;

struct Obj {
  long v;
  std::string tag;
  Obj() : v(-1), tag("default") { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  explicit Obj(long x) : v(x), tag("value") { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  Obj(const Obj &o) : v(o.v), tag(o.tag)
  {
    __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&copies, 1, __ATOMIC_RELAXED);
  }
  Obj &operator=(const Obj &o)
  {
    v = o.v;
    tag = o.tag;
    __atomic_fetch_add(&assigns, 1, __ATOMIC_RELAXED);
    return *this;
  }
  ~Obj() { __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED); }
};

static int task_count;

int main()
{
  int bad = 0;
  {
    Obj fp(42), lp(0), pv(7);
    int id = -1;
#pragma omp parallel shared(bad, fp, lp, pv)
#pragma omp single
    {
#pragma omp taskloop num_tasks(10) firstprivate(fp, id) shared(bad)
      for (int i = 0; i < 100; i++) {
        if (id < 0) {
          id = __atomic_fetch_add(&task_count, 1, __ATOMIC_RELAXED);
          if (fp.v != 42 || fp.tag != "value") {
#pragma omp atomic
            bad++;
          }
        }
        fp.v += 1; /* per-task copy accumulates over that task's iterations only */
      }
#pragma omp taskloop grainsize(9) lastprivate(lp)
      for (int i = 0; i < 100; i++) {
        lp.v = i;
        lp.tag = "last";
      }
      int first = 1;
#pragma omp taskloop grainsize(25) private(pv) firstprivate(first) shared(bad)
      for (int i = 0; i < 100; i++) {
        /* one default-constructed copy per task, seen fresh by the task's first iteration */
        if (first && pv.tag != "default") {
#pragma omp atomic
          bad++;
        }
        first = 0;
        pv.tag = "touched";
      }
    }
    EXPECT(10, task_count, "taskloop num_tasks(10) tasks");
    EXPECT(0, bad, "per-task object copies with wrong contents");
    EXPECT(42, fp.v, "firstprivate original unchanged");
    EXPECT(99, lp.v, "lastprivate value from the last iteration");
    EXPECT(1, lp.tag == "last", "lastprivate string from the last iteration");
    EXPECT(7, pv.v, "private original unchanged");
    EXPECT(3, live, "Obj alive after the taskloops (the three originals)");
    if (copies < 10)
      EXPECT(10, copies, "at least one copy per firstprivate task (got fewer)");
  }
  EXPECT(0, live, "Obj alive at the end");
  return failures != 0;
}
