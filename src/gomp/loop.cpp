// Worksharing loops (every schedule, long and unsigned long long forms,
// ordered, doacross) and the work-share ring they share with sections.
// Dynamic and guided chunks come from the work-sharing engine's FETCH;
// static chunks are computed by each member.
#include "gomp.hpp"

#include "base/backoff.hpp"
#include "base/error.hpp"

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace weft::gomp {
namespace {

constexpr uint64_t kClaimed = uint64_t(1) << 63;

template <class Pred> void spin_until(Pred p) {
  for (backoff b({200, backoff_policy::kForever}); !p();)
    b.pause();
}

} // namespace

// ---- the work-share ring
// -------------------------------------------------------
namespace {
// A slot's per-construct state, before its new occupant is described.
void reset(work_share &ws) {
  ws.ended.store(0, std::memory_order_relaxed);
  ws.cancelled.store(false, std::memory_order_relaxed);
  ws.ordered_next.store(0, std::memory_order_relaxed);
  ws.mem = nullptr;
  ws.task_reductions = nullptr;
  ws.posted = nullptr;
  ws.ordered = false;
}
} // namespace

work_share &ws_preclaim(gomp_team &g) {
  work_share &ws = g.ring[0];
  ws.free_for.store(kClaimed, std::memory_order_relaxed);
  reset(ws);
  return ws;
}

void ws_preclaim_done(gomp_team &g, work_share &ws) {
  ws.ready.store(1, std::memory_order_relaxed);
  for (member_state &m : g.members) {
    m.ws_index = 1;
    m.ws = &ws;
  }
}

// Members enter work shares in the same order; the k-th one lives in slot
// k mod kWorkShareRing. The first member to arrive claims the slot once
// every member has left its previous occupant, and initialises it.
work_share &ws_enter(context &c, bool *first) {
  member_state &m = c.m();
  uint64_t k = m.ws_index++;
  work_share &ws = c.g->ring[k % kWorkShareRing];
  m.ws = &ws;
  m.static_trip = 0;
  m.holds_order = false;
  if (ws.ready.load(std::memory_order_acquire) == k + 1) {
    *first = false;
    return ws;
  }
  for (;;) {
    uint64_t f = ws.free_for.load(std::memory_order_acquire);
    if (f == k && ws.free_for.compare_exchange_strong(
                      f, k | kClaimed, std::memory_order_acq_rel)) {
      *first = true;
      reset(ws);
      return ws;
    }
    if (ws.ready.load(std::memory_order_acquire) == k + 1) {
      *first = false;
      return ws;
    }
    cpu_relax();
    if (f != k && f != (k | kClaimed))
      std::this_thread::yield(); // a slow member still uses the slot
  }
}

void ws_end(context &c) {
  ws_leave(c);
  c.t->barrier(*c.w);
}

bool ws_end_cancel(context &c) {
  ws_leave(c);
  return c.t->barrier(*c.w, c.g->cancelled);
}

namespace {
uint64_t current_index(context &c) { return c.m().ws_index - 1; }
} // namespace

work_share &ws_begin(context &c, uintptr_t *reductions, void **mem,
                     bool *first) {
  if (reductions)
    taskgroup_open(c);
  work_share &ws = ws_enter(c, first);
  if (*first) {
    if (reductions) {
      register_reductions(c, reductions, nullptr);
      ws.task_reductions = reductions;
    }
    if (mem) {
      uintptr_t size = reinterpret_cast<uintptr_t>(*mem);
      ws.mem = std::calloc(1, size ? size : 1);
      if (!ws.mem)
        fatal("out of memory for a work share's %zu bytes of scratch", size);
    }
  }
  return ws;
}

void ws_begin_done(context &c, work_share &ws, bool first,
                   uintptr_t *reductions, void **mem) {
  if (first) {
    ws.ready.store(current_index(c) + 1, std::memory_order_release);
  } else {
    spin_until([&] {
      return ws.ready.load(std::memory_order_acquire) == current_index(c) + 1;
    });
    if (reductions)
      register_reductions(c, reductions, ws.task_reductions);
  }
  if (mem)
    *mem = ws.mem;
}

namespace {

void release_order(context &c);
} // namespace

void ws_leave(context &c) {
  member_state &m = c.m();
  work_share *ws = m.ws;
  if (!ws)
    return;
  if (m.holds_order)
    release_order(c);
  ws_engine().end(ws->ws);
  uint64_t k = current_index(c);
  m.ws = nullptr;
  if (ws->ended.fetch_add(1, std::memory_order_acq_rel) + 1 == c.t->size()) {
    std::free(ws->mem);
    ws->mem = nullptr;
    delete[] ws->posted;
    ws->posted = nullptr;
    ws->free_for.store(k + kWorkShareRing, std::memory_order_release);
  }
}

namespace {

// ---- loop description -------------------------------------------------------
uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

uint64_t count_long(long start, long end, long incr) {
  if (incr > 0)
    return start < end ? ceil_div(static_cast<unsigned long>(end) -
                                      static_cast<unsigned long>(start),
                                  static_cast<unsigned long>(incr))
                       : 0;
  if (incr == 0)
    fatal("OpenMP loop with a zero increment");
  return start > end ? ceil_div(static_cast<unsigned long>(start) -
                                    static_cast<unsigned long>(end),
                                0ul - static_cast<unsigned long>(incr))
                     : 0;
}

uint64_t count_ull(bool up, unsigned long long start, unsigned long long end,
                   unsigned long long incr) {
  if (incr == 0)
    fatal("OpenMP loop with a zero increment");
  if (up)
    return start < end ? ceil_div(end - start, incr) : 0;
  return start > end ? ceil_div(start - end, 0ull - incr) : 0;
}

// Resolves runtime/auto and the chunk defaults; returns the schedule.
int adjust_sched(const task_icvs &icv, int sched, long *chunk) {
  sched &= ~kSchedMonotonic;
  if (sched == sched_runtime || sched == sched_auto) {
    sched = icv.run_sched & ~kSchedMonotonic;
    *chunk = icv.run_chunk;
    if (sched == sched_auto) {
      sched = sched_static;
      *chunk = 0;
    }
  }
  if (sched != sched_static && *chunk < 1)
    *chunk = 1;
  if (sched == sched_static && *chunk < 0)
    *chunk = 0;
  return sched;
}

void describe(int nthreads, work_share &ws, int sched, long chunk) {
  ws.kind = sched;
  ws.chunk = static_cast<uint64_t>(chunk);
  if (sched == sched_dynamic || sched == sched_guided) {
    ws_loop l;
    l.count = ws.count;
    l.chunk = ws.chunk;
    l.kind = sched == sched_dynamic ? ws_kind::dynamic : ws_kind::guided;
    l.nthreads = nthreads;
    ws_engine().init(ws.ws, l);
  }
}

// The next chunk of the calling member in logical iterations.
bool next_chunk(context &c, uint64_t *b, uint64_t *e) {
  member_state &m = c.m();
  work_share &ws = *m.ws;
  if (m.holds_order)
    release_order(c);
  if (__builtin_expect(c.g->cancellable, 0) &&
      (ws.cancelled.load(std::memory_order_relaxed) ||
       c.g->cancelled.load(std::memory_order_relaxed)))
    return false;
  bool got;
  if (ws.kind == sched_static) {
    uint64_t n = static_cast<uint64_t>(c.t->size());
    uint64_t id = static_cast<uint64_t>(c.id);
    uint64_t count = ws.count;
    if (ws.chunk == 0) {
      if (m.static_trip++ != 0)
        return false;
      uint64_t q = count / n, r = count % n;
      *b = id * q + (id < r ? id : r);
      *e = *b + q + (id < r);
      got = *b < *e;
    } else {
      uint64_t c_idx = id + m.static_trip++ * n;
      if (c_idx > (count - 1) / ws.chunk || count == 0)
        return false;
      *b = c_idx * ws.chunk;
      *e = count - *b < ws.chunk ? count : *b + ws.chunk;
      got = true;
    }
  } else {
    got = ws_engine().fetch(ws.ws, b, e);
  }
  if (got && ws.ordered) {
    m.cur_begin = *b;
    m.cur_end = *e;
    m.holds_order = true;
  }
  return got;
}

void release_order(context &c) {
  member_state &m = c.m();
  work_share &ws = *m.ws;
  m.holds_order = false;
  spin_until([&] {
    return ws.ordered_next.load(std::memory_order_acquire) == m.cur_begin;
  });
  ws.ordered_next.store(m.cur_end, std::memory_order_release);
}

// Chunk [b, e) as bounds of the loop's own variable.
template <class T>
void to_bounds(work_share &ws, uint64_t b, uint64_t e, T *istart, T *iend) {
  if constexpr (sizeof(T) == sizeof(long) && static_cast<T>(-1) < 0) {
    *istart = static_cast<T>(static_cast<unsigned long>(ws.start) +
                             b * static_cast<unsigned long>(ws.incr));
    *iend = e == ws.count
                ? ws.end
                : static_cast<T>(static_cast<unsigned long>(ws.start) +
                                 e * static_cast<unsigned long>(ws.incr));
  } else {
    *istart = static_cast<T>(ws.ustart + b * ws.uincr);
    *iend = e == ws.count ? static_cast<T>(ws.uend)
                          : static_cast<T>(ws.ustart + e * ws.uincr);
  }
}

template <class T> bool next(T *istart, T *iend) {
  context c = ctx();
  uint64_t b, e;
  if (!c.m().ws || !next_chunk(c, &b, &e))
    return false;
  to_bounds(*c.m().ws, b, e, istart, iend);
  return true;
}

// Sets up the work share (the first member) or joins it; task reductions
// and shared scratch memory as GOMP_loop_start documents them.
bool loop_start(long start, long end, long incr, int sched, long chunk,
                long *istart, long *iend, bool ordered, uintptr_t *reductions,
                void **mem) {
  context c = ctx();
  bool first;
  work_share &ws = ws_begin(c, reductions, mem, &first);
  if (first) {
    ws.ordered = ordered;
    sched = adjust_sched(c.icv(), sched, &chunk);
    ws.ull = false;
    ws.start = start;
    ws.end = end;
    ws.incr = incr;
    ws.count = count_long(start, end, incr);
    describe(c.t->size(), ws, sched, chunk);
  }
  ws_begin_done(c, ws, first, reductions, mem);
  if (!istart)
    return true;
  return next(istart, iend);
}

bool loop_ull_start(bool up, unsigned long long start, unsigned long long end,
                    unsigned long long incr, int sched,
                    unsigned long long chunk, unsigned long long *istart,
                    unsigned long long *iend, bool ordered,
                    uintptr_t *reductions, void **mem) {
  context c = ctx();
  bool first;
  work_share &ws = ws_begin(c, reductions, mem, &first);
  if (first) {
    ws.ordered = ordered;
    long ch = chunk > static_cast<unsigned long long>(LONG_MAX)
                  ? LONG_MAX
                  : static_cast<long>(chunk);
    sched = adjust_sched(c.icv(), sched, &ch);
    ws.ull = true;
    ws.ustart = start;
    ws.uend = end;
    ws.uincr = incr;
    ws.count = count_ull(up, start, end, incr);
    describe(c.t->size(), ws, sched, ch);
  }
  ws_begin_done(c, ws, first, reductions, mem);
  if (!istart)
    return true;
  return next(istart, iend);
}

// ---- doacross
// ------------------------------------------------------------------
constexpr uint64_t kMaxDoacross = uint64_t(1) << 28;

template <class T>
void doacross_setup(context &c, work_share &ws, unsigned ncounts,
                    const T *counts) {
  (void)c;
  ws.dims.assign(ncounts, 0);
  uint64_t total = 1;
  for (unsigned i = 0; i < ncounts; ++i) {
    uint64_t n = static_cast<uint64_t>(counts[i]);
    ws.dims[i] = n;
    if (n != 0 && total > kMaxDoacross / n)
      fatal("OpenMP doacross loop: %llu iterations in its ordered "
            "dimensions exceed weft's limit of %llu",
            (unsigned long long)total * n, (unsigned long long)kMaxDoacross);
    total *= n;
  }
  ws.posted = new std::atomic<uint8_t>[total ? total : 1]();
}

bool doacross_flat(const work_share &ws, const uint64_t *v, uint64_t *out) {
  uint64_t flat = 0;
  for (size_t i = 0; i < ws.dims.size(); ++i) {
    if (v[i] >= ws.dims[i])
      return false; // outside the iteration space: nothing to wait for
    flat = flat * ws.dims[i] + v[i];
  }
  *out = flat;
  return true;
}

template <class T>
bool doacross_start(unsigned ncounts, T *counts, long sched, long chunk,
                    T *istart, T *iend, uintptr_t *reductions, void **mem) {
  context c = ctx();
  bool first;
  work_share &ws = ws_begin(c, reductions, mem, &first);
  if (first) {
    sched = adjust_sched(c.icv(), static_cast<int>(sched), &chunk);
    ws.ull = sizeof(T) == sizeof(unsigned long long) && static_cast<T>(-1) > 0;
    ws.start = 0;
    ws.incr = 1;
    ws.end = static_cast<long>(counts[0]);
    ws.ustart = 0;
    ws.uincr = 1;
    ws.uend = static_cast<unsigned long long>(counts[0]);
    ws.count = static_cast<uint64_t>(counts[0]);
    describe(c.t->size(), ws, static_cast<int>(sched), chunk);
    doacross_setup(c, ws, ncounts, counts);
  }
  ws_begin_done(c, ws, first, reductions, mem);
  if (!istart)
    return true;
  return next(istart, iend);
}

void doacross_post(const uint64_t *v) {
  context c = ctx();
  work_share &ws = *c.m().ws;
  uint64_t f;
  if (ws.posted && doacross_flat(ws, v, &f))
    ws.posted[f].store(1, std::memory_order_release);
}

void doacross_wait(const uint64_t *v) {
  context c = ctx();
  work_share &ws = *c.m().ws;
  uint64_t f;
  if (!ws.posted || !doacross_flat(ws, v, &f))
    return;
  spin_until([&] { return ws.posted[f].load(std::memory_order_acquire) != 0; });
}

} // namespace

void preinit_loop(gomp_team &g, int nthreads, const task_icvs &icv,
                  const void *arg) {
  const auto &d = *static_cast<const loop_desc *>(arg);
  work_share &ws = ws_preclaim(g);
  long chunk = d.chunk;
  int sched = adjust_sched(icv, d.sched, &chunk);
  ws.ull = false;
  ws.start = d.start;
  ws.end = d.end;
  ws.incr = d.incr;
  ws.count = count_long(d.start, d.end, d.incr);
  describe(nthreads, ws, sched, chunk);
  ws_preclaim_done(g, ws);
}

} // namespace weft::gomp

using namespace weft;
using namespace weft::gomp;

// ---- GCC 9+ entry points
// -----------------------------------------------------
WEFT_GOMP_API bool GOMP_loop_start(long start, long end, long incr, long sched,
                                   long chunk, long *istart, long *iend,
                                   uintptr_t *reductions, void **mem) {
  return loop_start(start, end, incr, static_cast<int>(sched), chunk, istart,
                    iend, false, reductions, mem);
}
WEFT_GOMP_API bool GOMP_loop_ordered_start(long start, long end, long incr,
                                           long sched, long chunk, long *istart,
                                           long *iend, uintptr_t *reductions,
                                           void **mem) {
  return loop_start(start, end, incr, static_cast<int>(sched), chunk, istart,
                    iend, true, reductions, mem);
}
WEFT_GOMP_API bool GOMP_loop_ull_start(bool up, unsigned long long start,
                                       unsigned long long end,
                                       unsigned long long incr, long sched,
                                       unsigned long long chunk,
                                       unsigned long long *istart,
                                       unsigned long long *iend,
                                       uintptr_t *reductions, void **mem) {
  return loop_ull_start(up, start, end, incr, static_cast<int>(sched), chunk,
                        istart, iend, false, reductions, mem);
}
WEFT_GOMP_API bool GOMP_loop_ull_ordered_start(
    bool up, unsigned long long start, unsigned long long end,
    unsigned long long incr, long sched, unsigned long long chunk,
    unsigned long long *istart, unsigned long long *iend, uintptr_t *reductions,
    void **mem) {
  return loop_ull_start(up, start, end, incr, static_cast<int>(sched), chunk,
                        istart, iend, true, reductions, mem);
}
WEFT_GOMP_API bool GOMP_loop_doacross_start(unsigned ncounts, long *counts,
                                            long sched, long chunk,
                                            long *istart, long *iend,
                                            uintptr_t *reductions, void **mem) {
  return doacross_start(ncounts, counts, sched, chunk, istart, iend, reductions,
                        mem);
}
WEFT_GOMP_API bool GOMP_loop_ull_doacross_start(
    unsigned ncounts, unsigned long long *counts, long sched,
    unsigned long long chunk, unsigned long long *istart,
    unsigned long long *iend, uintptr_t *reductions, void **mem) {
  return doacross_start(ncounts, counts, sched, static_cast<long>(chunk),
                        istart, iend, reductions, mem);
}

// ---- the per-schedule entry points (older GCC, and still emitted)
// ------------
#define WEFT_LOOP_START(NAME, SCHED, ORDERED)                                  \
  WEFT_GOMP_API bool NAME(long start, long end, long incr, long chunk,         \
                          long *istart, long *iend) {                          \
    return loop_start(start, end, incr, SCHED, chunk, istart, iend, ORDERED,   \
                      nullptr, nullptr);                                       \
  }
#define WEFT_LOOP_RUNTIME_START(NAME, ORDERED)                                 \
  WEFT_GOMP_API bool NAME(long start, long end, long incr, long *istart,       \
                          long *iend) {                                        \
    return loop_start(start, end, incr, sched_runtime, 0, istart, iend,        \
                      ORDERED, nullptr, nullptr);                              \
  }
#define WEFT_LOOP_ULL_START(NAME, SCHED, ORDERED)                              \
  WEFT_GOMP_API bool NAME(                                                     \
      bool up, unsigned long long start, unsigned long long end,               \
      unsigned long long incr, unsigned long long chunk,                       \
      unsigned long long *istart, unsigned long long *iend) {                  \
    return loop_ull_start(up, start, end, incr, SCHED, chunk, istart, iend,    \
                          ORDERED, nullptr, nullptr);                          \
  }
#define WEFT_LOOP_ULL_RUNTIME_START(NAME, ORDERED)                             \
  WEFT_GOMP_API bool NAME(bool up, unsigned long long start,                   \
                          unsigned long long end, unsigned long long incr,     \
                          unsigned long long *istart,                          \
                          unsigned long long *iend) {                          \
    return loop_ull_start(up, start, end, incr, sched_runtime, 0, istart,      \
                          iend, ORDERED, nullptr, nullptr);                    \
  }
#define WEFT_LOOP_NEXT(NAME)                                                   \
  WEFT_GOMP_API bool NAME(long *istart, long *iend) {                          \
    return next(istart, iend);                                                 \
  }
#define WEFT_LOOP_ULL_NEXT(NAME)                                               \
  WEFT_GOMP_API bool NAME(unsigned long long *istart,                          \
                          unsigned long long *iend) {                          \
    return next(istart, iend);                                                 \
  }

WEFT_LOOP_START(GOMP_loop_static_start, sched_static, false)
WEFT_LOOP_START(GOMP_loop_dynamic_start, sched_dynamic, false)
WEFT_LOOP_START(GOMP_loop_guided_start, sched_guided, false)
WEFT_LOOP_START(GOMP_loop_nonmonotonic_dynamic_start, sched_dynamic, false)
WEFT_LOOP_START(GOMP_loop_nonmonotonic_guided_start, sched_guided, false)
WEFT_LOOP_RUNTIME_START(GOMP_loop_runtime_start, false)
WEFT_LOOP_RUNTIME_START(GOMP_loop_nonmonotonic_runtime_start, false)
WEFT_LOOP_RUNTIME_START(GOMP_loop_maybe_nonmonotonic_runtime_start, false)
WEFT_LOOP_START(GOMP_loop_ordered_static_start, sched_static, true)
WEFT_LOOP_START(GOMP_loop_ordered_dynamic_start, sched_dynamic, true)
WEFT_LOOP_START(GOMP_loop_ordered_guided_start, sched_guided, true)
WEFT_LOOP_RUNTIME_START(GOMP_loop_ordered_runtime_start, true)

WEFT_LOOP_ULL_START(GOMP_loop_ull_static_start, sched_static, false)
WEFT_LOOP_ULL_START(GOMP_loop_ull_dynamic_start, sched_dynamic, false)
WEFT_LOOP_ULL_START(GOMP_loop_ull_guided_start, sched_guided, false)
WEFT_LOOP_ULL_START(GOMP_loop_ull_nonmonotonic_dynamic_start, sched_dynamic,
                    false)
WEFT_LOOP_ULL_START(GOMP_loop_ull_nonmonotonic_guided_start, sched_guided,
                    false)
WEFT_LOOP_ULL_RUNTIME_START(GOMP_loop_ull_runtime_start, false)
WEFT_LOOP_ULL_RUNTIME_START(GOMP_loop_ull_nonmonotonic_runtime_start, false)
WEFT_LOOP_ULL_RUNTIME_START(GOMP_loop_ull_maybe_nonmonotonic_runtime_start,
                            false)
WEFT_LOOP_ULL_START(GOMP_loop_ull_ordered_static_start, sched_static, true)
WEFT_LOOP_ULL_START(GOMP_loop_ull_ordered_dynamic_start, sched_dynamic, true)
WEFT_LOOP_ULL_START(GOMP_loop_ull_ordered_guided_start, sched_guided, true)
WEFT_LOOP_ULL_RUNTIME_START(GOMP_loop_ull_ordered_runtime_start, true)

WEFT_LOOP_NEXT(GOMP_loop_static_next)
WEFT_LOOP_NEXT(GOMP_loop_dynamic_next)
WEFT_LOOP_NEXT(GOMP_loop_guided_next)
WEFT_LOOP_NEXT(GOMP_loop_runtime_next)
WEFT_LOOP_NEXT(GOMP_loop_nonmonotonic_dynamic_next)
WEFT_LOOP_NEXT(GOMP_loop_nonmonotonic_guided_next)
WEFT_LOOP_NEXT(GOMP_loop_nonmonotonic_runtime_next)
WEFT_LOOP_NEXT(GOMP_loop_maybe_nonmonotonic_runtime_next)
WEFT_LOOP_NEXT(GOMP_loop_ordered_static_next)
WEFT_LOOP_NEXT(GOMP_loop_ordered_dynamic_next)
WEFT_LOOP_NEXT(GOMP_loop_ordered_guided_next)
WEFT_LOOP_NEXT(GOMP_loop_ordered_runtime_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_static_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_dynamic_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_guided_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_runtime_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_nonmonotonic_dynamic_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_nonmonotonic_guided_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_nonmonotonic_runtime_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_maybe_nonmonotonic_runtime_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_ordered_static_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_ordered_dynamic_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_ordered_guided_next)
WEFT_LOOP_ULL_NEXT(GOMP_loop_ull_ordered_runtime_next)

#define WEFT_DOACROSS_START(NAME, SCHED)                                       \
  WEFT_GOMP_API bool NAME(unsigned ncounts, long *counts, long chunk,          \
                          long *istart, long *iend) {                          \
    return doacross_start(ncounts, counts, SCHED, chunk, istart, iend,         \
                          nullptr, nullptr);                                   \
  }
#define WEFT_DOACROSS_ULL_START(NAME, SCHED)                                   \
  WEFT_GOMP_API bool NAME(                                                     \
      unsigned ncounts, unsigned long long *counts, unsigned long long chunk,  \
      unsigned long long *istart, unsigned long long *iend) {                  \
    return doacross_start(ncounts, counts, SCHED, static_cast<long>(chunk),    \
                          istart, iend, nullptr, nullptr);                     \
  }
WEFT_DOACROSS_START(GOMP_loop_doacross_static_start, sched_static)
WEFT_DOACROSS_START(GOMP_loop_doacross_dynamic_start, sched_dynamic)
WEFT_DOACROSS_START(GOMP_loop_doacross_guided_start, sched_guided)
WEFT_DOACROSS_ULL_START(GOMP_loop_ull_doacross_static_start, sched_static)
WEFT_DOACROSS_ULL_START(GOMP_loop_ull_doacross_dynamic_start, sched_dynamic)
WEFT_DOACROSS_ULL_START(GOMP_loop_ull_doacross_guided_start, sched_guided)
WEFT_GOMP_API bool GOMP_loop_doacross_runtime_start(unsigned ncounts,
                                                    long *counts, long *istart,
                                                    long *iend) {
  return doacross_start(ncounts, counts, sched_runtime, 0, istart, iend,
                        nullptr, nullptr);
}
WEFT_GOMP_API bool GOMP_loop_ull_doacross_runtime_start(
    unsigned ncounts, unsigned long long *counts, unsigned long long *istart,
    unsigned long long *iend) {
  return doacross_start(ncounts, counts, sched_runtime, 0, istart, iend,
                        nullptr, nullptr);
}

namespace {
constexpr size_t kMaxDims = 64;
// Ordered dimensions of the caller's doacross loop (0 outside one).
size_t doacross_dims() {
  context c = ctx();
  size_t n = c.m().ws ? c.m().ws->dims.size() : 0;
  if (n > kMaxDims)
    unsupported("doacross loops with more than 64 ordered dimensions");
  return n;
}
} // namespace

WEFT_GOMP_API void GOMP_doacross_post(long *counts) {
  size_t n = doacross_dims();
  uint64_t v[kMaxDims];
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<uint64_t>(counts[i]);
  doacross_post(v);
}
WEFT_GOMP_API void GOMP_doacross_ull_post(unsigned long long *counts) {
  size_t n = doacross_dims();
  uint64_t v[kMaxDims];
  for (size_t i = 0; i < n; ++i)
    v[i] = counts[i];
  doacross_post(v);
}
WEFT_GOMP_API void GOMP_doacross_wait(long first, ...) {
  size_t n = doacross_dims();
  uint64_t v[kMaxDims];
  v[0] = static_cast<uint64_t>(first);
  va_list ap;
  va_start(ap, first);
  for (size_t i = 1; i < n; ++i)
    v[i] = static_cast<uint64_t>(va_arg(ap, long));
  va_end(ap);
  doacross_wait(v);
}
WEFT_GOMP_API void GOMP_doacross_ull_wait(unsigned long long first, ...) {
  size_t n = doacross_dims();
  uint64_t v[kMaxDims];
  v[0] = first;
  va_list ap;
  va_start(ap, first);
  for (size_t i = 1; i < n; ++i)
    v[i] = va_arg(ap, unsigned long long);
  va_end(ap);
  doacross_wait(v);
}

// ---- ordered
// -------------------------------------------------------------------
WEFT_GOMP_API void GOMP_ordered_start(void) {
  context c = ctx();
  member_state &m = c.m();
  if (!m.ws || !m.holds_order)
    return; // an orphaned ordered outside an ordered loop runs as is
  work_share &ws = *m.ws;
  spin_until([&] {
    return ws.ordered_next.load(std::memory_order_acquire) == m.cur_begin;
  });
}
WEFT_GOMP_API void GOMP_ordered_end(void) {}

// ---- end of a loop
// -------------------------------------------------------------
WEFT_GOMP_API void GOMP_loop_end(void) {
  context c = ctx();
  ws_end(c);
}
WEFT_GOMP_API void GOMP_loop_end_nowait(void) {
  context c = ctx();
  ws_leave(c);
}
WEFT_GOMP_API bool GOMP_loop_end_cancel(void) {
  context c = ctx();
  return ws_end_cancel(c);
}
WEFT_GOMP_API void GOMP_loop_ull_end(void) { GOMP_loop_end(); }

// ---- combined parallel loops
// --------------------------------------------------- The members call
// GOMP_loop_*_next straight away: the work share is set up before they start.
static void parallel_loop(void (*fn)(void *), void *data, unsigned nthreads,
                          long start, long end, long incr, int sched,
                          long chunk, unsigned flags) {
  loop_desc d{start, end, incr, sched, chunk};
  parallel(fn, data, nthreads, flags, nullptr, preinit_loop, &d);
}

#define WEFT_PARALLEL_LOOP(NAME, SCHED)                                        \
  WEFT_GOMP_API void NAME(void (*fn)(void *), void *data, unsigned nthreads,   \
                          long start, long end, long incr, long chunk,         \
                          unsigned flags) {                                    \
    parallel_loop(fn, data, nthreads, start, end, incr, SCHED, chunk, flags);  \
  }
#define WEFT_PARALLEL_LOOP_RUNTIME(NAME)                                       \
  WEFT_GOMP_API void NAME(void (*fn)(void *), void *data, unsigned nthreads,   \
                          long start, long end, long incr, unsigned flags) {   \
    parallel_loop(fn, data, nthreads, start, end, incr, sched_runtime, 0,      \
                  flags);                                                      \
  }
WEFT_PARALLEL_LOOP(GOMP_parallel_loop_static, sched_static)
WEFT_PARALLEL_LOOP(GOMP_parallel_loop_dynamic, sched_dynamic)
WEFT_PARALLEL_LOOP(GOMP_parallel_loop_guided, sched_guided)
WEFT_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic, sched_dynamic)
WEFT_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided, sched_guided)
WEFT_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
WEFT_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
WEFT_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

// The pre-GCC 4.9 combined forms: members start here, the master calls the
// body itself, then GOMP_parallel_end.
#define WEFT_PARALLEL_LOOP_START(NAME, SCHED)                                  \
  WEFT_GOMP_API void NAME(void (*fn)(void *), void *data, unsigned nthreads,   \
                          long start, long end, long incr, long chunk) {       \
    loop_desc d{start, end, incr, SCHED, chunk};                               \
    parallel_start(fn, data, nthreads, preinit_loop, &d);                      \
  }
WEFT_PARALLEL_LOOP_START(GOMP_parallel_loop_static_start, sched_static)
WEFT_PARALLEL_LOOP_START(GOMP_parallel_loop_dynamic_start, sched_dynamic)
WEFT_PARALLEL_LOOP_START(GOMP_parallel_loop_guided_start, sched_guided)
WEFT_GOMP_API void GOMP_parallel_loop_runtime_start(void (*fn)(void *),
                                                    void *data,
                                                    unsigned nthreads,
                                                    long start, long end,
                                                    long incr) {
  loop_desc d{start, end, incr, sched_runtime, 0};
  parallel_start(fn, data, nthreads, preinit_loop, &d);
}
