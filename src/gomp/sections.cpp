// Sections: a work share of `count` sections handed out one at a time by
// the work-sharing engine's FETCH (the HWSE paper's chunk = stride = 1).
#include "gomp.hpp"

namespace weft::gomp {
namespace {

struct sections_desc {
  unsigned count;
};

void describe_sections(work_share &ws, int nthreads, unsigned count) {
  ws.kind = sched_dynamic;
  ws.chunk = 1;
  ws.ull = false;
  ws.start = 1;
  ws.incr = 1;
  ws.end = static_cast<long>(count) + 1;
  ws.count = count;
  ws.ordered = false;
  ws_engine().init(ws.ws, ws_loop{count, 1, ws_kind::dynamic, nthreads});
}

// 1-based number of the next section for the caller, 0 when none is left.
unsigned next_section(context &c) {
  work_share *ws = c.m().ws;
  if (!ws || (__builtin_expect(c.g->cancellable, 0) &&
              (ws->cancelled.load(std::memory_order_relaxed) ||
               c.g->cancelled.load(std::memory_order_relaxed))))
    return 0;
  uint64_t b, e;
  if (!ws_engine().fetch(ws->ws, &b, &e))
    return 0;
  return static_cast<unsigned>(b + 1);
}

unsigned sections_start(unsigned count, uintptr_t *reductions, void **mem) {
  context c = ctx();
  bool first;
  work_share &ws = ws_begin(c, reductions, mem, &first);
  if (first)
    describe_sections(ws, c.t->size(), count);
  ws_begin_done(c, ws, first, reductions, mem);
  return next_section(c);
}

void preinit_sections(gomp_team &g, int nthreads, const task_icvs &,
                      const void *arg) {
  unsigned count = static_cast<const sections_desc *>(arg)->count;
  work_share &ws = ws_preclaim(g);
  describe_sections(ws, nthreads, count);
  ws_preclaim_done(g, ws);
}

} // namespace
} // namespace weft::gomp

using namespace weft;
using namespace weft::gomp;

WEFT_GOMP_API unsigned GOMP_sections_start(unsigned count) {
  return sections_start(count, nullptr, nullptr);
}
WEFT_GOMP_API unsigned GOMP_sections2_start(unsigned count,
                                            uintptr_t *reductions, void **mem) {
  return sections_start(count, reductions, mem);
}
WEFT_GOMP_API unsigned GOMP_sections_next(void) {
  context c = ctx();
  return next_section(c);
}
WEFT_GOMP_API void GOMP_sections_end(void) {
  context c = ctx();
  ws_end(c);
}
WEFT_GOMP_API void GOMP_sections_end_nowait(void) {
  context c = ctx();
  ws_leave(c);
}
WEFT_GOMP_API bool GOMP_sections_end_cancel(void) {
  context c = ctx();
  return ws_end_cancel(c);
}
WEFT_GOMP_API void GOMP_parallel_sections(void (*fn)(void *), void *data,
                                          unsigned nthreads, unsigned count,
                                          unsigned flags) {
  sections_desc d{count};
  parallel(fn, data, nthreads, flags, nullptr, preinit_sections, &d);
}

WEFT_GOMP_API void GOMP_parallel_sections_start(void (*fn)(void *), void *data,
                                                unsigned nthreads,
                                                unsigned count) {
  sections_desc d{count};
  parallel_start(fn, data, nthreads, preinit_sections, &d);
}
