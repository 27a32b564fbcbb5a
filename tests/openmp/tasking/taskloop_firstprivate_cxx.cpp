// Checks C++ objects in taskloop clauses: firstprivate copies per generated task (copy constructor), lastprivate assignment from the last iteration, private default construction, and balanced construction/destruction.
#include <omp.h>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NAME "taskloop_firstprivate_cxx.cpp"

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
  for (int i = 0; i < n; i++)
    __asm__ __volatile__("" ::: "memory");
}

/* Global event counter: ordering checks compare ticks (end of A < start of B). */
static long seq_counter;
static inline long tick(void) { return __atomic_fetch_add(&seq_counter, 1, __ATOMIC_SEQ_CST); }

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
