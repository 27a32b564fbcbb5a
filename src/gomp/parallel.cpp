// Parallel regions, barriers, single, masked, critical and atomic.
#include "gomp.hpp"

#include "base/env.hpp"
#include "base/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace weft::gomp {
namespace {

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
    icv.nthreads =
        gi.nthreads_list.empty() ? gi.num_procs : gi.nthreads_list[0];
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
    g->cancellable = gi.cancellation;
  }
  return static_cast<gomp_team *>(t->user);
}

void start_runtime() {
  // Threads of the program's own may get here at the same time.
  static std::mutex start_lock;
  std::lock_guard<std::mutex> lk(start_lock);
  if (!g_runtime.load(std::memory_order_acquire)) {
    g_worker_stack_size = icv_global().stacksize;
    if (icv_global().wait_policy_from_omp)
      g_wait_policy_request =
          icv_global().wait_policy ? wait_policy::active : wait_policy::passive;
    g_wait_pauses_request = icv_global().spin_count;
    // The OpenMP front end makes its own teams: the runtime starts with the
    // initial thread alone.
    if (runtime::start(1, "OpenMP") != WEFT_OK)
      fatal("%s", weft_last_error());
    // The runtime is never torn down (threads may still be in a region
    // when exit() runs); WEFT_STATS still reports at exit.
    if (runtime::stats_requested())
      std::atexit([] {
        if (runtime *r = g_runtime.load(std::memory_order_acquire))
          r->print_stats();
      });
  }
}

// A region's arguments travel in the team object: t->arg is the data,
// region_args hold the function, the parallel reduction(task) taskgroup
// and whether members bind or display affinity first.
struct region {
  void (*fn)(void *);
  void *data;
  bool start_hook;
};

void member_body(worker &w, int, void *data) {
  team *t = w.current_team();
  auto fn = reinterpret_cast<void (*)(void *)>(t->region_args[0]);
  if (auto *rg = static_cast<taskgroup_state *>(t->region_args[1]))
    w.root()->cur_group = rg;
  if (__builtin_expect(t->region_args[2] != nullptr, 0)) {
    context c = ctx();
    member_start(c);
  }
  fn(data);
  w.root()->cur_group = nullptr;
}

} // namespace

worksharing_engine &ws_engine() {
  return g_runtime.load(std::memory_order_relaxed)->ws_engine();
}

[[noreturn]] void unsupported(const char *what) {
  fatal("OpenMP: %s is not supported by weft", what);
}

namespace {
bool tied_constraint_wanted() {
  env::reader r;
  bool on = true;
  r.flag("WEFT_OMP_TIED_CONSTRAINT", on);
  if (!r.ok())
    fatal("%s", r.error().c_str());
  return on;
}
} // namespace

context ctx_slow() {
  worker *w = tl_worker;
  if (__builtin_expect(!w, 0)) {
    start_runtime();
    w = tl_worker;
    if (!w) // a thread of the program's own: an initial thread of its own
      w = rt().adopt_thread();
  }
  // OpenMP's tasks are tied unless marked untied: the task scheduling
  // constraint applies (WEFT_OMP_TIED_CONSTRAINT=0 turns it off;
  // docs/openmp.md).
  static const bool wanted = tied_constraint_wanted();
  if (wanted && !tied_scheduling.load(std::memory_order_relaxed) &&
      rt().engine().supports_tied_constraint())
    tied_scheduling.store(true, std::memory_order_relaxed);
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
  if (c.g->active_level >= max_active_levels(c))
    return 1;
  long n = requested ? static_cast<long>(requested) : c.icv().nthreads;
  if (n < 1)
    n = 1;
  if (n > gi.thread_limit)
    n = gi.thread_limit;
  if (c.icv().dyn && n > gi.num_procs)
    n = gi.num_procs;
  if (n > kMaxWorkers)
    n = kMaxWorkers;
  return static_cast<unsigned>(n);
}

namespace {
// A team for fn(data), its front-end state reset for the new region.
team *prepare(context &c, unsigned n, uintptr_t *reductions, preinit_fn pre,
              const void *pre_arg, region *r) {
  team *t = rt().begin_team(*c.w, static_cast<int>(n));
  gomp_team *g = team_state(t);
  g->level = c.g->level + 1;
  g->active_level = c.g->active_level + (n > 1);
  g->parent = c.g;
  g->parent_thread = c.id;
  const task_icvs &parent_icv = c.icv();
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
  g->cancellable = gi.cancellation;
  g->reduction_group = nullptr;
  if (reductions) {
    auto *rg = new taskgroup_state;
    reduction_setup(reductions, nullptr, nullptr, n);
    rg->user = reductions;
    g->reduction_group = rg;
  }
  if (pre)
    pre(*g, static_cast<int>(n), parent_icv, pre_arg);
  r->start_hook = gi.display_affinity ||
                  (!gi.place_list.empty() && parent_icv.bind != 0) ||
                  !gi.bind_list.empty();
  t->body = member_body;
  t->arg = r->data;
  t->region_args[0] = reinterpret_cast<void *>(r->fn);
  t->region_args[1] = g->reduction_group;
  t->region_args[2] = r->start_hook ? t : nullptr;
  return t;
}

void finish(team *t) {
  gomp_team *g = static_cast<gomp_team *>(t->user);
  delete g->reduction_group;
  g->reduction_group = nullptr;
}

// GOMP_parallel_start .. GOMP_parallel_end: the region of each master
// (they nest).
struct open_region {
  team *t;
  worker::membership m;
  region r;
};
thread_local std::vector<open_region *> tl_open;
} // namespace

unsigned parallel(void (*fn)(void *), void *data, unsigned num_threads,
                  unsigned flags, uintptr_t *reductions, preinit_fn pre,
                  const void *pre_arg) {
  (void)flags; // proc_bind: OMP_PROC_BIND and OMP_PLACES decide binding
  context c = ctx();
  unsigned n = resolve_num_threads(c, num_threads, true);
  region r{fn, data, false};
  team *t = prepare(c, n, reductions, pre, pre_arg, &r);
  rt().run_team(*c.w, t);
  finish(t);
  return n;
}

void parallel_start(void (*fn)(void *), void *data, unsigned num_threads,
                    preinit_fn pre, const void *pre_arg) {
  context c = ctx();
  unsigned n = resolve_num_threads(c, num_threads, true);
  auto *o = new open_region;
  o->r = region{fn, data, false};
  o->t = prepare(c, n, nullptr, pre, pre_arg, &o->r);
  o->m = rt().start_team(*c.w, o->t);
  tl_open.push_back(o);
  if (o->r.start_hook) {
    context mc = ctx();
    member_start(mc);
  }
}

void parallel_end() {
  if (tl_open.empty())
    fatal("GOMP_parallel_end without GOMP_parallel_start");
  open_region *o = tl_open.back();
  tl_open.pop_back();
  rt().finish_team(*tl_worker, o->t, o->m);
  finish(o->t);
  delete o;
}

} // namespace weft::gomp

using namespace weft;
using namespace weft::gomp;

// ---- parallel
// -----------------------------------------------------------------
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

// The pre-GCC 4.9 protocol: the members start at GOMP_parallel_start, the
// master calls fn itself, then GOMP_parallel_end.
WEFT_GOMP_API void GOMP_parallel_start(void (*fn)(void *), void *data,
                                       unsigned num_threads) {
  parallel_start(fn, data, num_threads, nullptr, nullptr);
}
WEFT_GOMP_API void GOMP_parallel_end(void) { parallel_end(); }

WEFT_GOMP_API bool GOMP_cancellation_point(int which);

// ---- barrier
// ------------------------------------------------------------------
WEFT_GOMP_API void GOMP_barrier(void) {
  context c = ctx();
  c.t->barrier(*c.w);
}

WEFT_GOMP_API bool GOMP_barrier_cancel(void) {
  context c = ctx();
  return c.t->barrier(*c.w, c.g->cancelled);
}

// ---- single
// -------------------------------------------------------------------
WEFT_GOMP_API bool GOMP_single_start(void) {
  context c = ctx();
  uint64_t mine = c.m().single_index++;
  uint64_t expected = mine;
  return c.g->single_count.compare_exchange_strong(expected, mine + 1,
                                                   std::memory_order_acq_rel);
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

// ---- critical and atomic
// -------------------------------------------------------
namespace {
alignas(64) std::atomic<int> g_critical{0};
alignas(64) std::atomic<int> g_atomic{0};
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
