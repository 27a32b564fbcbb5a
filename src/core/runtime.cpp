#include "runtime.hpp"

#include "base/env.hpp"
#include "base/error.hpp"
#include "trace/recorder.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sched.h>
#include <string>

namespace weft {

std::atomic<runtime *> g_runtime{nullptr};
// initial-exec: libweft is loaded with the program (or in libgomp's place),
// never dlopen'ed late, and the task path reads this on every call.
__attribute__((tls_model("initial-exec"))) thread_local worker *tl_worker =
    nullptr;
std::size_t g_worker_stack_size = 0;

namespace {
std::mutex g_start_lock;

int default_threads(int &out) {
  env::reader r;
  if (r.integer("WEFT_NUM_THREADS", 1, kMaxWorkers, out, "a thread count"))
    return WEFT_OK;
  if (!r.ok())
    return set_error(WEFT_EINVAL, "%s", r.error().c_str());
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    out = CPU_COUNT(&set);
  else
    out = 1;
  if (out < 1)
    out = 1;
  return WEFT_OK;
}
} // namespace

bool runtime::stats_requested() {
  const char *s = env::get("WEFT_STATS");
  return s && *s != '0';
}

int runtime::start(int nthreads, const char *call) {
  if (nthreads < 0 || nthreads > kMaxWorkers)
    return set_error(WEFT_EINVAL, "%s: num_threads is %d (must be in [0, %d])",
                     call, nthreads, kMaxWorkers);
  std::lock_guard<std::mutex> lk(g_start_lock);
  if (runtime *rt = g_runtime.load(std::memory_order_acquire)) {
    if (nthreads == 0 || nthreads == rt->initial_team().size())
      return WEFT_OK;
    return set_error(WEFT_ESTATE,
                     "%s: weft already runs with %d threads (asked for %d); "
                     "call weft_shutdown first",
                     call, rt->initial_team().size(), nthreads);
  }
  if (nthreads == 0)
    if (int rc = default_threads(nthreads); rc != WEFT_OK)
      return rc;
  const char *e = env::get("WEFT_ENGINE");
  std::string name = e ? e : "sw";
  std::unique_ptr<dependency_engine> engine = make_engine(name, nthreads);
  if (!engine)
    return set_error(WEFT_EINVAL, "WEFT_ENGINE=%s: unknown engine (known: %s)",
                     name.c_str(), engine_names());
  const char *we = env::get("WEFT_WS_ENGINE");
  std::string ws_name = we ? we : "sw";
  std::unique_ptr<worksharing_engine> ws = make_ws_engine(ws_name);
  if (!ws)
    return set_error(WEFT_EINVAL,
                     "WEFT_WS_ENGINE=%s: unknown work-sharing engine (known: "
                     "%s)",
                     ws_name.c_str(), ws_engine_names());
  if (int rc = trace::start_from_env(engine->name(), nthreads); rc != WEFT_OK)
    return rc;
  new runtime(nthreads, std::move(engine), std::move(ws));
  return WEFT_OK;
}

// A parent with more unfinished children than this per thread runs ready
// tasks itself before creating more (bounds memory and the dependence map,
// as libgomp's task throttling does).
inline constexpr uint64_t kThrottlePerThread = 64;
inline constexpr uint64_t kThrottleCheckEvery = 16;
// Members still leaving a team the master is about to reuse.
inline constexpr backoff_policy kLeavingBackoff{1000, backoff_policy::kForever};
// Waits that only yield: the thread waited for may need this core.
inline constexpr backoff_policy kYieldBackoff{0, backoff_policy::kForever};
uint64_t throttle_limit(worker &w) {
  return kThrottlePerThread * static_cast<uint64_t>(w.current_team()->size());
}

namespace {
void native_member(worker &w, int, void *) {
  w.wait_until([&w] { return w.rt().stopping(); });
}
} // namespace

namespace {
// A child of fork() has only the thread that forked: the runtime's other
// workers do not exist there. Forget the parent's runtime (its memory is
// left as it is) so that the child's first call starts one of its own.
void forget_runtime_in_child() {
  g_runtime.store(nullptr, std::memory_order_relaxed);
  tl_worker = nullptr;
  trace::forget_in_child();
}
std::once_flag g_atfork_once;
} // namespace

runtime::runtime(int nthreads, std::unique_ptr<dependency_engine> engine,
                 std::unique_ptr<worksharing_engine> ws_engine)
    : engine_(std::move(engine)), ws_engine_(std::move(ws_engine)),
      workers_(new worker *[kMaxWorkers + 1]()),
      pools_(new task_pool *[kMaxWorkers + 1]()) {
  asymmetric_fence_init();
  if (ws_engine_->allocates_descriptors())
    descriptor_bins_ = ws_engine_.get();
  std::call_once(g_atfork_once, [] {
    pthread_atfork(nullptr, nullptr, forget_runtime_in_child);
  });
  worker *w0 = new_worker(false);
  team0_ = new team(*this, nthreads);
  team0_->body = native_member;
  team0_->end_barrier = false;
  w0->enter_team(team0_, 0);
  tl_worker = w0;
  g_runtime.store(this, std::memory_order_release);
  team0_->inside.store(nthreads - 1, std::memory_order_relaxed);
  for (int i = 1; i < nthreads; ++i) {
    worker *w = new_worker(true);
    team0_->slot(i).w = w;
    w->assign(team0_, i);
  }
  watchdog_ = std::make_unique<wait_watchdog>(*this);
  engine_->start(*this);
}

worker *runtime::new_worker(bool with_thread) {
  std::lock_guard<std::mutex> lk(workers_lock_);
  int id = nworkers_.load(std::memory_order_relaxed);
  if (id > kMaxWorkers)
    fatal("more than %d threads: weft's limit", kMaxWorkers + 1);
  auto *w = new worker(*this, id);
  workers_[id] = w;
  pools_[id] = &w->pool();
  if (trace::on())
    w->trace_ = trace::attach(id);
  nworkers_.store(id + 1, std::memory_order_release);
  if (with_thread) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (std::size_t sz = g_worker_stack_size)
      if (int rc = pthread_attr_setstacksize(&attr, sz); rc != 0)
        fatal("cannot use a thread stack of %zu bytes: %s", sz,
              std::strerror(rc));
    pthread_t th;
    auto main = [](void *p) -> void * {
      auto *me = static_cast<worker *>(p);
      tl_worker = me;
      me->thread_main();
      tl_worker = nullptr;
      return nullptr;
    };
    if (int rc = pthread_create(&th, &attr, main, w); rc != 0)
      fatal("cannot start worker thread %d: %s", id, std::strerror(rc));
    pthread_attr_destroy(&attr);
    threads_.push_back(th);
  }
  return w;
}

worker *runtime::adopt_thread() {
  worker *w = new_worker(false);
  auto *t = new team(*this, 1);
  w->enter_team(t, 0);
  tl_worker = w;
  return w;
}

team *runtime::begin_team(worker &master, int n) {
  std::vector<team *> &cache = master.team_cache;
  size_t depth = static_cast<size_t>(master.master_depth);
  if (cache.size() <= depth)
    cache.resize(depth + 1, nullptr);
  team *old = cache[depth];
  if (old) {
    wait_members_left(old);
    if (old->size() == n)
      return old;
  }
  auto *t = new team(*this, n);
  t->slot(0).w = &master;
  int reused = 0;
  if (old) {
    reused = std::min(old->size(), n) - 1;
    for (int i = 1; i <= reused; ++i)
      t->slot(i).w = old->slot(i).w;
  }
  {
    std::lock_guard<std::mutex> lk(workers_lock_);
    if (old)
      for (int i = reused + 1; i < old->size(); ++i)
        idle_.push_back(old->slot(i).w);
    for (int i = reused + 1; i < n && !idle_.empty(); ++i) {
      t->slot(i).w = idle_.back();
      idle_.pop_back();
      reused = i;
    }
  }
  for (int i = reused + 1; i < n; ++i)
    t->slot(i).w = new_worker(true);
  delete old;
  cache[depth] = t;
  return t;
}

void runtime::run_team(worker &master, team *t) {
  worker::membership m = start_team(master, t);
  t->body(master, 0, t->arg);
  finish_team(master, t, m);
}

worker::membership runtime::start_team(worker &master, team *t) {
  int n = t->size();
  t->reset_for_region();
  if (__builtin_expect(trace::on(), 0)) {
    uint32_t enc = master.current()->trace_id;
    t->trace_parent = enc;
    master.trace_log()->put(trace::kind::region_begin, 0,
                            static_cast<uint32_t>(n), trace::ticks(), enc, 0);
  }
  t->inside.store(n - 1, std::memory_order_relaxed);
  for (int i = 1; i < n; ++i)
    t->slot(i).w->assign(t, i);
  ++master.master_depth;
  return master.enter_team(t, 0);
}

void runtime::finish_team(worker &master, team *t,
                          const worker::membership &m) {
  t->barrier(master);
  master.leave_team(m);
  --master.master_depth;
  if (__builtin_expect(trace::on(), 0))
    master.trace_log()->put(trace::kind::region_end, 0, 0, trace::ticks(),
                            master.current()->trace_id, 0);
  // Members may still be on their way out of the team; the master does not
  // wait for them here but before it reuses the team or its workers (as
  // libgomp's dock), so that their exit overlaps its serial code.
}

void runtime::wait_teams_left() {
  for (int i = 0; i < nthreads(); ++i)
    for (team *t : workers_[i]->team_cache)
      if (t)
        wait_members_left(t);
}

void runtime::wait_members_left(team *t) {
  backoff b(kLeavingBackoff);
  while (t->inside.load(std::memory_order_acquire) != 0 ||
         t->routing.load(std::memory_order_acquire) != 0)
    b.pause();
}

runtime::~runtime() {
  worker &w = *tl_worker;
  {
    wait_scope ws(w.wait_state(), wait_kind::shutdown, w.root());
    wait_all_tasks(w);
  }
  watchdog_.reset();
  wait_teams_left();
  stopping_.store(true, std::memory_order_seq_cst);
  team0_->wake_all(&w);
  for (backoff b(kYieldBackoff);
       team0_->inside.load(std::memory_order_acquire) != 0;)
    b.pause();
  int n = nthreads();
  for (int i = 0; i < n; ++i)
    if (workers_[i] != &w)
      workers_[i]->assign(nullptr, 0);
  for (pthread_t t : threads_)
    pthread_join(t, nullptr);
  if (stats_requested())
    print_stats();
  if (std::exception_ptr *e = w.root()->exc.exchange(nullptr)) {
    std::fprintf(stderr, "weft: shutdown with an exception from a task that "
                         "nobody waited for\n");
    delete e;
  }
  w.leave_team({nullptr, nullptr, 0, nullptr});
  if (trace::on())
    trace::stop(true); // every other worker has exited
  g_runtime.store(nullptr, std::memory_order_release);
  tl_worker = nullptr;
  // Blocks travel between pools: destroy the engine state first, then the
  // workers (each frees the slabs it allocated).
  engine_->stop();
  engine_.reset();
  delete team0_;
  for (int i = 0; i < n; ++i)
    delete workers_[i];
}

void runtime::wait_all_tasks(worker &w) {
  taskwait(w);
  // Not wait_until: it may sleep, and the worker that finishes the last
  // task (in the native team's loop) has no reason to wake us.
  for (backoff b(kYieldBackoff); !team0_->tasks_done();)
    if (!w.help_once())
      b.pause();
}

// ---------------------------------------------------------------------------
int runtime::spawn(worker &w, task *t, const weft_dep *deps, int ndeps) {
  if (__builtin_expect(trace::on(), 0))
    return spawn_impl<true>(w, t, deps, ndeps);
  return spawn_impl<false>(w, t, deps, ndeps);
}

template <bool Traced>
__attribute__((always_inline)) inline int
runtime::spawn_impl(worker &w, task *t, const weft_dep *deps, int ndeps) {
  // Traced: task_create at entry; the spawn segment ends at the engine's
  // first answer (or before the task runs here).
  uint64_t t0 = 0;
  if constexpr (Traced)
    t0 = trace::ticks_early();
  task *parent = w.current();
  t->parent = parent;
  t->home = w.slot();
  t->group = parent->cur_group ? parent->cur_group : parent->group;
  if (t->group)
    t->group->count.fetch_add(1, std::memory_order_relaxed);
  ++parent->created;
  worker_counters::bump(w.counters().spawned);
  team_slot &slot = *w.slot();
  slot.spawned.store(slot.spawned.load(std::memory_order_relaxed) + 1,
                     std::memory_order_release);

  if (parent->created % kThrottleCheckEvery == 0)
    w.throttled_ =
        unfinished_children(w, parent) > throttle_limit(w) ? parent : nullptr;
  if (w.throttled_ == parent && t->priority <= 0 &&
      engine_->ready_now(w, parent, deps, ndeps)) {
    // Plenty of queued work already: run it here and now (libgomp does the
    // same). It ends before any later sibling is submitted, so nothing
    // needs to be recorded for it.
    worker_counters::bump(w.counters().undeferred);
    if constexpr (Traced) {
      trace::thread_log &l = *w.trace_log();
      // Not flag_undeferred: the program did not ask for it, and a replay
      // on more cores must be free to run it elsewhere (its body shows as
      // a task nested in the creator's, as help during a wait does).
      trace::created(l, t, parent, deps, ndeps, trace::flags_of(t), t0);
      trace::overhead(l, trace::overhead_kind::spawn, t->trace_id, t0,
                      trace::ticks_early());
    }
    w.run_undeferred(t);
    return WEFT_OK;
  }

  uint32_t id = 0; // t may run and be recycled once submitted
  if constexpr (Traced) {
    trace::created(*w.trace_log(), t, parent, deps, ndeps, trace::flags_of(t),
                   t0);
    id = t->trace_id;
  }
  submit_result r;
  backoff idle(kFullBackoff);
  while ((r = engine_->submit(w, parent, t, deps, ndeps)) ==
         submit_result::full) {
    // Back-pressure: make progress, then offer the task again. With no work
    // to make progress with for a while (every entry of a tiny engine held
    // by running tasks that wait to submit too), stop waiting for room.
    worker_counters::bump(w.counters().full);
    if constexpr (Traced)
      if (t0) {
        trace::overhead(*w.trace_log(), trace::overhead_kind::spawn, id, t0,
                        trace::ticks_early());
        t0 = 0;
      }
    if (w.help_once()) {
      idle.reset();
    } else if (!idle.pause()) {
      r = submit_result::serialize;
      break;
    }
  }
  if (r == submit_result::ready)
    w.push_ready(t);
  if constexpr (Traced)
    if (t0)
      trace::overhead(*w.trace_log(), trace::overhead_kind::spawn, id, t0,
                      trace::ticks_early());
  if (r == submit_result::serialize) {
    serialize(w, parent, t);
    return WEFT_OK;
  }

  if (w.throttled_ == parent) {
    // Still too much: run ready tasks until half of it is done.
    while (unfinished_children(w, parent) > throttle_limit(w) / 2 &&
           w.help_once()) {
    }
  }
  return WEFT_OK;
}

void runtime::serialize(worker &w, task *parent, task *t) {
  // Every earlier sibling finished and no later one exists yet: t is ordered
  // after and before each of them whatever their dependences.
  worker_counters::bump(w.counters().serialized);
  wait_children(w, parent, parent->created - 1);
  w.run_undeferred(t);
}

void runtime::wait_children(worker &w, task *parent, uint64_t n) {
  auto done = [parent, n] {
    return finished_children(
               parent->children.load(std::memory_order_acquire)) >= n;
  };
  if (done())
    return;
  wait_scope ws(w.wait_state(), wait_kind::taskwait, parent);
  // The child that brings the count to n must wake us: say who waits.
  parent->children.fetch_or(kChildWaiting |
                                (uint64_t(w.id()) << kChildWaiterShift),
                            std::memory_order_seq_cst);
  w.wait_until(done);
  parent->children.fetch_and(~(kChildWaiting | kChildWaiterMask),
                             std::memory_order_relaxed);
}

uint64_t runtime::unfinished_children(worker &w, task *parent) {
  w.flush_finished_children();
  return parent->created -
         finished_children(parent->children.load(std::memory_order_acquire));
}

int runtime::taskwait(worker &w) {
  if (__builtin_expect(trace::on(), 0)) {
    uint32_t id = w.current()->trace_id;
    trace::wait_begin(*w.trace_log(), trace::wait_kind::taskwait, id, nullptr,
                      0);
    int rc = taskwait_impl(w);
    w.trace_log()->put(trace::kind::wait_end,
                       static_cast<uint8_t>(trace::wait_kind::taskwait), 0,
                       trace::ticks(), id, 0);
    return rc;
  }
  return taskwait_impl(w);
}

int runtime::taskwait_impl(worker &w) {
  task *cur = w.current();
  if (cur->created != 0) {
    wait_children(w, cur, cur->created);
    // No child is left to touch the counter: start counting afresh.
    cur->children.store(kChildBias, std::memory_order_relaxed);
    cur->created = 0;
    if (cur->domain)
      engine_->children_done(w, cur);
  }
  if (std::exception_ptr *e = cur->exc.exchange(nullptr)) {
    take_exception_into_tls(e);
    return set_error(WEFT_ETASK, "weft_taskwait: a child task threw an "
                                 "exception");
  }
  return WEFT_OK;
}

int runtime::taskwait_deps(worker &w, const weft_dep *deps, int ndeps) {
  if (__builtin_expect(trace::on(), 0)) {
    uint32_t id = w.current()->trace_id;
    trace::wait_begin(*w.trace_log(), trace::wait_kind::taskwait_on, id, deps,
                      ndeps);
    int rc = taskwait_deps_impl(w, deps, ndeps);
    w.trace_log()->put(trace::kind::wait_end,
                       static_cast<uint8_t>(trace::wait_kind::taskwait_on), 0,
                       trace::ticks(), id, 0);
    return rc;
  }
  return taskwait_deps_impl(w, deps, ndeps);
}

int runtime::taskwait_deps_impl(worker &w, const weft_dep *deps, int ndeps) {
  task *cur = w.current();
  if (cur->created == 0)
    return WEFT_OK;
  alignas(64) task waiter{};
  waiter.flags = TASK_WAITER;
  waiter.arg = reinterpret_cast<void *>(static_cast<intptr_t>(w.id()));
  waiter.owner = static_cast<uint16_t>(w.id());
  waiter.refs.store(1, std::memory_order_relaxed);
  wait_result r = engine_->wait_deps(w, cur, &waiter, deps, ndeps);
  if (r == wait_result::all)
    return taskwait_impl(w); // the engine cannot express this wait: all
  if (r == wait_result::waiter) {
    wait_scope ws(w.wait_state(), wait_kind::taskwait_on, cur,
                  ndeps == 1 ? deps[0].addr : nullptr);
    w.wait_until([&waiter] {
      return waiter.children.load(std::memory_order_acquire) != 0;
    });
  }
  return WEFT_OK;
}

int runtime::taskgroup_begin(worker &w) {
  task *cur = w.current();
  auto *g = new taskgroup_state;
  g->outer = cur->cur_group;
  cur->cur_group = g;
  return WEFT_OK;
}

int runtime::taskgroup_end(worker &w) {
  task *cur = w.current();
  taskgroup_state *g = cur->cur_group;
  if (!g)
    return set_error(WEFT_ESTATE, "weft_taskgroup_end: no taskgroup is open "
                                  "in the calling task");
  auto done = [g] {
    return (g->count.load(std::memory_order_acquire) & kChildCountMask) == 0;
  };
  const bool traced = trace::on();
  if (__builtin_expect(traced, 0))
    trace::wait_begin(*w.trace_log(), trace::wait_kind::taskgroup,
                      cur->trace_id, nullptr, 0);
  if (!done()) {
    wait_scope ws(w.wait_state(), wait_kind::taskgroup, cur);
    g->count.fetch_or(kChildWaiting | (uint64_t(w.id()) << kChildWaiterShift),
                      std::memory_order_seq_cst);
    w.wait_until(done);
  }
  if (__builtin_expect(traced, 0))
    w.trace_log()->put(trace::kind::wait_end,
                       static_cast<uint8_t>(trace::wait_kind::taskgroup), 0,
                       trace::ticks(), cur->trace_id, 0);
  cur->cur_group = g->outer;
  std::exception_ptr *e = g->exc.exchange(nullptr);
  delete g;
  if (e) {
    take_exception_into_tls(e);
    return set_error(WEFT_ETASK, "weft_taskgroup_end: a task of the group "
                                 "threw an exception");
  }
  return WEFT_OK;
}

// ---------------------------------------------------------------------------
bool runtime::try_wake(worker &w) {
  if (!w.sleeping_.load(std::memory_order_seq_cst) ||
      !w.sleeping_.exchange(false, std::memory_order_acq_rel))
    return false;
  w.sleep_word_.fetch_add(1, std::memory_order_release);
  futex_wake(w.sleep_word_, 1);
  return true;
}

team_slot *runtime::home_slot(task *t) { return t->home; }

void runtime::release_waiter(task *t) {
  // The waiter lives on the waiting thread's stack: read what we need first,
  // the store below lets it return.
  int wid = static_cast<int>(reinterpret_cast<intptr_t>(t->arg));
  t->children.store(1, std::memory_order_seq_cst);
  wake(wid);
}

void runtime::engine_ready(task *t) {
  if (t->flags & TASK_WAITER) {
    release_waiter(t);
    return;
  }
  team *home = home_slot(t)->owner;
  home->routing.fetch_add(1, std::memory_order_relaxed);
  home->push_priority(t);
  light_fence();
  home->wake_one();
  home->routing.fetch_sub(1, std::memory_order_release);
}

std::vector<engine_counter> runtime::engine_counters() const {
  engine_stats es;
  engine_->add_stats(es);
  ws_stats ws;
  ws_engine_->add_stats(ws);
  std::vector<engine_counter> out = std::move(es.counters);
  out.insert(out.end(), ws.counters.begin(), ws.counters.end());
  return out;
}

void runtime::fulfill(task *t) {
  if (t->detach_parts.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return; // the body has not ended: its end completes the task
  // Complete it in its own team (the barrier counts it there): queue it
  // first in that team's priority heap, whichever thread we are.
  team_slot *slot = home_slot(t);
  t->flags |= TASK_COMPLETE_ONLY;
  t->priority = INT32_MAX;
  slot->owner->push_priority(t);
  light_fence();
  slot->owner->wake_one();
}

bool runtime::run_now_instead(worker &w, const weft_dep *deps, int ndeps) {
  task *parent = w.current();
  if (w.throttled_ != parent)
    return false;
  if (++w.inline_checks_ % kThrottleCheckEvery == 0 &&
      unfinished_children(w, parent) <= throttle_limit(w) / 2) {
    w.throttled_ = nullptr;
    return false;
  }
  if (!engine_->ready_now(w, parent, deps, ndeps))
    return false;
  worker_counters::bump(w.counters().undeferred);
  return true;
}

// ---------------------------------------------------------------------------
weft_stats runtime::stats() const {
  weft_stats s;
  std::memset(&s, 0, sizeof s);
  for (int i = 0; i < nthreads(); ++i) {
    worker_counters &c = workers_[i]->counters();
    s.tasks_spawned += c.spawned.load(std::memory_order_relaxed);
    s.tasks_run += c.finished.load(std::memory_order_relaxed);
    s.steals += c.steals.load(std::memory_order_relaxed);
    s.immediate_successors += c.immediate.load(std::memory_order_relaxed);
    s.sleeps += c.sleeps.load(std::memory_order_relaxed);
    s.engine_full += c.full.load(std::memory_order_relaxed);
    s.tasks_undeferred += c.undeferred.load(std::memory_order_relaxed);
    s.tasks_serialized += c.serialized.load(std::memory_order_relaxed);
  }
  engine_stats es;
  engine_->add_stats(es);
  s.deps_submitted = es.deps_submitted;
  s.edges = es.edges;
  s.peak_map_entries = es.peak_map_entries;
  s.modelled_cycles = es.modelled_cycles;
  std::snprintf(s.engine, sizeof s.engine, "%s", engine_->name());
  return s;
}

void runtime::print_stats() const {
  weft_stats s = stats();
  std::fprintf(
      stderr,
      "weft stats: engine=%s threads=%d tasks=%llu run=%llu "
      "undeferred=%llu deps=%llu edges=%llu steals=%llu immediate=%llu "
      "sleeps=%llu "
      "full=%llu serialized=%llu peak_map=%llu modelled_cycles=%llu "
      "ws_engine=%s\n",
      s.engine, const_cast<runtime *>(this)->nthreads(),
      (unsigned long long)s.tasks_spawned, (unsigned long long)s.tasks_run,
      (unsigned long long)s.tasks_undeferred,
      (unsigned long long)s.deps_submitted, (unsigned long long)s.edges,
      (unsigned long long)s.steals, (unsigned long long)s.immediate_successors,
      (unsigned long long)s.sleeps, (unsigned long long)s.engine_full,
      (unsigned long long)s.tasks_serialized,
      (unsigned long long)s.peak_map_entries,
      (unsigned long long)s.modelled_cycles, ws_engine_->name());
  for (const engine_counter &c : engine_counters())
    std::fprintf(stderr, "weft stats:   %s=%llu\n", c.name,
                 (unsigned long long)c.value);
}

} // namespace weft

namespace weft {
void runtime::take_exception_into_tls(std::exception_ptr *e) {
  set_pending_exception(*e);
  delete e;
}
} // namespace weft
