// Parallel regions, barriers, single, masked, critical and atomic.
#include "gomp.hpp"

#include "../core/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace weft::gomp {
namespace {

std::once_flag g_env_once;
std::unique_ptr<worksharing_engine> g_ws_engine;

void free_gomp_team(void *p) { delete static_cast<gomp_team *>(p); }

// Front-end state of a team used for the first time (the initial team, an
// adopted thread's team, or a team object begun for a region).
gomp_team *team_state(team *t) {
  if (!t->user) {
    auto *g = new gomp_team;
    g->members.resize(static_cast<size_t>(t->size()));
    t->user = g;
    t->user_free = free_gomp_team;
    task_icvs icv;
    global_icvs &gi = icv_global();
    icv.nthreads = gi.nthreads_list.empty() ? gi.num_procs : gi.nthreads_list[0];
    icv.run_sched = gi.run_sched;
    icv.run_chunk = gi.run_chunk;
    icv.dyn = gi.dyn;
    icv.bind = gi.bind_list.empty() ? 0 : gi.bind_list[0];
    icv.default_device = gi.default_device;
    for (member_state &m : g->members)
      m.icv = icv;
    for (int i = 0; i < kWorkShareRing; ++i)
      g->ring[i].free_for.store(static_cast<uint64_t>(i),
                                std::memory_order_relaxed);
  }
  return static_cast<gomp_team *>(t->user);
}

void start_runtime() {
  std::call_once(g_env_once, [] {
    const char *e = std::getenv("WEFT_WS_ENGINE");
    std::string name = e && *e ? e : "sw";
    g_ws_engine = make_ws_engine(name);
    if (!g_ws_engine)
      fatal("WEFT_WS_ENGINE=%s: unknown work-sharing engine (known: %s)",
            name.c_str(), ws_engine_names());
  });
  if (!g_runtime.load(std::memory_order_acquire)) {
    g_worker_stack_size = icv_global().stacksize;
    // The OpenMP front end makes its own teams: the runtime starts with the
    // initial thread alone.
    if (runtime::start(1, "OpenMP") != WEFT_OK)
      fatal("%s", weft_last_error());
  }
}

struct region {
  void (*fn)(void *);
  void *data;
  bool start_hook; // bind or display affinity at the start
};

void member_body(worker &w, int slot, void *arg) {
  auto *r = static_cast<region *>(arg);
  gomp_team *g = static_cast<gomp_team *>(w.current_team()->user);
  if (g->reduction_group)
    w.root()->cur_group = g->reduction_group;
  (void)slot;
  if (__builtin_expect(r->start_hook, 0)) {
    context c = ctx();
    member_start(c);
  }
  r->fn(r->data);
  w.root()->cur_group = nullptr;
}

} // namespace

worksharing_engine &ws_engine() { return *g_ws_engine; }
runtime &rt() { return *g_runtime.load(std::memory_order_relaxed); }

[[noreturn]] void unsupported(const char *what) {
  fatal("OpenMP: %s is not supported by weft", what);
}

context ctx() {
  worker *w = tl_worker;
  if (__builtin_expect(!w, 0)) {
    start_runtime();
    w = tl_worker;
    if (!w) // a thread of the program's own: an initial thread of its own
      w = rt().adopt_thread();
  }
  team *t = w->current_team();
  auto *g = static_cast<gomp_team *>(t->user);
  if (__builtin_expect(!g, 0))
    g = team_state(t);
  return {w, t, g, w->slot_index()};
}

unsigned resolve_num_threads(context &c, unsigned requested, bool if_true) {
  if (!if_true)
    return 1;
  global_icvs &gi = icv_global();
  if (c.g->active_level >= gi.max_active_levels.load(std::memory_order_relaxed))
    return 1;
  long n = requested ? static_cast<long>(requested) : c.m().icv.nthreads;
  if (n < 1)
    n = 1;
  if (n > gi.thread_limit)
    n = gi.thread_limit;
  if (c.m().icv.dyn && n > gi.num_procs)
    n = gi.num_procs;
  if (n > kMaxWorkers)
    n = kMaxWorkers;
  return static_cast<unsigned>(n);
}

unsigned parallel(void (*fn)(void *), void *data, unsigned num_threads,
                  unsigned flags, uintptr_t *reductions, preinit_fn pre,
                  const void *pre_arg) {
  (void)flags; // proc_bind: accepted, threads are not bound
  context c = ctx();
  unsigned n = resolve_num_threads(c, num_threads, true);
  team *t = rt().begin_team(*c.w, static_cast<int>(n));
  gomp_team *g = team_state(t);
  // Fresh per-region state (the team object may be reused).
  g->level = c.g->level + 1;
  g->active_level = c.g->active_level + (n > 1);
  g->parent = c.g;
  g->parent_thread = c.id;
  const task_icvs &parent_icv = c.m().icv;
  global_icvs &gi = icv_global();
  for (member_state &m : g->members) {
    m = member_state{};
    m.icv = parent_icv;
    size_t next = static_cast<size_t>(parent_icv.nthreads_level) + 1;
    if (next < gi.nthreads_list.size()) {
      m.icv.nthreads = gi.nthreads_list[next];
      m.icv.nthreads_level = static_cast<int>(next);
    }
    if (next < gi.bind_list.size())
      m.icv.bind = gi.bind_list[next];
  }
  for (int i = 0; i < kWorkShareRing; ++i) {
    work_share &ws = g->ring[i];
    ws.ready.store(0, std::memory_order_relaxed);
    ws.free_for.store(static_cast<uint64_t>(i), std::memory_order_relaxed);
    ws.ended.store(0, std::memory_order_relaxed);
  }
  g->single_count.store(0, std::memory_order_relaxed);
  g->copyprivate.store(nullptr, std::memory_order_relaxed);
  g->cancelled.store(false, std::memory_order_relaxed);
  taskgroup_state *rg = nullptr;
  if (reductions) {
    rg = new taskgroup_state;
    reduction_setup(reductions, nullptr, nullptr, n);
    rg->user = reductions;
  }
  g->reduction_group = rg;
  if (pre)
    pre(*g, static_cast<int>(n), c.m().icv, pre_arg);
  region r{fn, data,
           gi.display_affinity ||
               (!gi.place_list.empty() && c.m().icv.bind != 0) ||
               !gi.bind_list.empty()};
  t->body = member_body;
  t->arg = &r;
  rt().run_team(*c.w, t);
  g->reduction_group = nullptr;
  delete rg;
  return n;
}

} // namespace weft::gomp

using namespace weft;
using namespace weft::gomp;

// ---- parallel -----------------------------------------------------------------
WEFT_GOMP_API void GOMP_parallel(void (*fn)(void *), void *data,
                                 unsigned num_threads, unsigned flags) {
  parallel(fn, data, num_threads, flags, nullptr);
}

WEFT_GOMP_API unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data,
                                                unsigned num_threads,
                                                unsigned flags) {
  // The reduction data's address is the first field of data.
  uintptr_t *rdata = *static_cast<uintptr_t **>(data);
  return parallel(fn, data, num_threads, flags, rdata);
}

// The pre-GCC 4.9 protocol: the master calls fn itself between start and
// end. weft runs the region at start (the master's own call of fn happens
// inside) only when that is equivalent, so it refuses instead.
WEFT_GOMP_API void GOMP_parallel_start(void (*)(void *), void *, unsigned) {
  unsupported("GOMP_parallel_start (the pre-GCC 4.9 parallel protocol; "
              "recompile with a newer gcc)");
}
WEFT_GOMP_API void GOMP_parallel_end(void) {
  unsupported("GOMP_parallel_end (the pre-GCC 4.9 parallel protocol)");
}

WEFT_GOMP_API bool GOMP_cancellation_point(int which);

// ---- barrier ------------------------------------------------------------------
WEFT_GOMP_API void GOMP_barrier(void) {
  context c = ctx();
  c.t->barrier(*c.w);
}

WEFT_GOMP_API bool GOMP_barrier_cancel(void) {
  context c = ctx();
  return c.t->barrier(*c.w, c.g->cancelled);
}

// ---- single -------------------------------------------------------------------
WEFT_GOMP_API bool GOMP_single_start(void) {
  context c = ctx();
  uint64_t mine = c.m().single_index++;
  uint64_t expected = mine;
  return c.g->single_count.compare_exchange_strong(
      expected, mine + 1, std::memory_order_acq_rel);
}

WEFT_GOMP_API void *GOMP_single_copy_start(void) {
  context c = ctx();
  uint64_t mine = c.m().single_index++;
  uint64_t expected = mine;
  if (c.g->single_count.compare_exchange_strong(expected, mine + 1,
                                                std::memory_order_acq_rel))
    return nullptr; // we run it, then GOMP_single_copy_end publishes
  c.t->barrier(*c.w);
  return c.g->copyprivate.load(std::memory_order_acquire);
}

WEFT_GOMP_API void GOMP_single_copy_end(void *data) {
  context c = ctx();
  c.g->copyprivate.store(data, std::memory_order_release);
  c.t->barrier(*c.w);
}

// ---- critical and atomic -------------------------------------------------------
namespace {
std::atomic<int> g_critical{0};
std::atomic<int> g_atomic{0};
} // namespace

WEFT_GOMP_API void GOMP_critical_start(void) { lock_word(g_critical); }
WEFT_GOMP_API void GOMP_critical_end(void) { unlock_word(g_critical); }

// A named critical's lock lives in the pointer-sized variable GCC emits for
// the name (zero-initialised, shared by every translation unit).
static_assert(sizeof(std::atomic<int>) <= sizeof(void *));
WEFT_GOMP_API void GOMP_critical_name_start(void **pptr) {
  lock_word(*reinterpret_cast<std::atomic<int> *>(pptr));
}
WEFT_GOMP_API void GOMP_critical_name_end(void **pptr) {
  unlock_word(*reinterpret_cast<std::atomic<int> *>(pptr));
}

WEFT_GOMP_API void GOMP_atomic_start(void) { lock_word(g_atomic); }
WEFT_GOMP_API void GOMP_atomic_end(void) { unlock_word(g_atomic); }


extern "C" __attribute__((noreturn, visibility("hidden"))) void
weft_gomp_unimplemented(const char *name) {
  fatal("OpenMP entry point %s is not implemented by weft", name);
}
