#include "runtime.hpp"

#include "error.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft {

std::atomic<runtime *> g_runtime{nullptr};
thread_local worker *tl_worker = nullptr;

// A parent with more unfinished children than this per thread runs ready
// tasks itself before creating more (bounds memory and the dependence map,
// as libgomp's task throttling does).
inline constexpr uint64_t kThrottlePerThread = 64;
inline constexpr uint64_t kThrottleCheckEvery = 16;

runtime::runtime(int nthreads, std::unique_ptr<dependency_engine> engine)
    : engine_(std::move(engine)) {
  asymmetric_fence_init();
  throttle_limit_ = kThrottlePerThread * static_cast<uint64_t>(nthreads);
  workers_.reserve(nthreads);
  pools_.reserve(nthreads);
  for (int i = 0; i < nthreads; ++i) {
    workers_.push_back(new worker(*this, i, nthreads));
    pools_.push_back(&workers_.back()->pool());
  }
  tl_worker = workers_[0];
  g_runtime.store(this, std::memory_order_release);
  for (int i = 1; i < nthreads; ++i)
    threads_.emplace_back([this, i] {
      tl_worker = workers_[i];
      workers_[i]->run_loop();
      tl_worker = nullptr;
    });
  watchdog_ = std::make_unique<wait_watchdog>(*this);
}

runtime::~runtime() {
  worker &w = *workers_[0];
  {
    wait_scope ws(w.wait_state(), wait_kind::shutdown, w.root());
    wait_all_tasks(w);
  }
  watchdog_.reset();
  stopping_.store(true, std::memory_order_seq_cst);
  for (int i = 0; i < nthreads(); ++i)
    wake(i);
  for (std::thread &t : threads_)
    t.join();
  if (const char *s = std::getenv("WEFT_STATS"); s && *s && *s != '0')
    print_stats();
  if (std::exception_ptr *e = w.root()->exc.exchange(nullptr)) {
    std::fprintf(stderr, "weft: shutdown with an exception from a task that "
                         "nobody waited for\n");
    delete e;
  }
  for (worker *x : workers_)
    if (x->root()->domain)
      engine_->task_end(*x, x->root());
  g_runtime.store(nullptr, std::memory_order_release);
  tl_worker = nullptr;
  // Blocks travel between pools: destroy the engine state first, then the
  // workers (each frees the slabs it allocated).
  engine_.reset();
  for (worker *x : workers_)
    delete x;
}

void runtime::wait_all_tasks(worker &w) {
  // Every task ever spawned has finished once the sums agree; a running task
  // has not finished, so it cannot spawn unseen tasks while they agree.
  auto all_done = [this] {
    uint64_t fin = 0, spawned = 0;
    for (worker *x : workers_)
      fin += x->counters().finished.load(std::memory_order_acquire);
    for (worker *x : workers_)
      spawned += x->counters().spawned.load(std::memory_order_acquire);
    return fin == spawned;
  };
  taskwait(w);
  while (!all_done())
    if (!w.help_once())
      std::this_thread::yield();
}

// ---------------------------------------------------------------------------
int runtime::spawn(worker &w, task *t, const weft_dep *deps, int ndeps) {
  task *parent = w.current();
  t->parent = parent;
  t->group = parent->cur_group ? parent->cur_group : parent->group;
  if (t->group)
    t->group->count.fetch_add(1, std::memory_order_relaxed);
  ++parent->created;
  worker_counters::bump(w.counters().spawned);

  if (parent->created % kThrottleCheckEvery == 0)
    w.throttled_ =
        unfinished_children(w, parent) > throttle_limit_ ? parent : nullptr;
  if (w.throttled_ == parent && t->priority <= 0 &&
      engine_->ready_now(w, parent, deps, ndeps)) {
    // Plenty of queued work already: run it here and now (libgomp does the
    // same). It ends before any later sibling is submitted, so nothing
    // needs to be recorded for it.
    worker_counters::bump(w.counters().undeferred);
    w.run_undeferred(t);
    return WEFT_OK;
  }

  submit_result r;
  while ((r = engine_->submit(w, parent, t, deps, ndeps)) ==
         submit_result::full) {
    // Back-pressure: make progress, then offer the task again.
    worker_counters::bump(w.counters().full);
    if (!w.help_once())
      cpu_relax();
  }
  if (r == submit_result::ready)
    w.push_ready(t);

  if (w.throttled_ == parent) {
    // Still too much: run ready tasks until half of it is done.
    while (unfinished_children(w, parent) > throttle_limit_ / 2 &&
           w.help_once()) {
    }
  }
  return WEFT_OK;
}

uint64_t runtime::unfinished_children(worker &w, task *parent) {
  w.flush_finished_children();
  return parent->created -
         finished_children(parent->children.load(std::memory_order_acquire));
}

int runtime::taskwait(worker &w) {
  task *cur = w.current();
  if (cur->created != 0) {
    auto done = [cur] {
      return finished_children(cur->children.load(
                 std::memory_order_acquire)) == cur->created;
    };
    if (!done()) {
      wait_scope ws(w.wait_state(), wait_kind::taskwait, cur);
      cur->children.fetch_or(kChildWaiting | (uint64_t(w.id())
                                              << kChildWaiterShift),
                             std::memory_order_seq_cst);
      w.wait_until(done);
      cur->children.fetch_and(~(kChildWaiting | kChildWaiterMask),
                              std::memory_order_relaxed);
    }
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
  task *cur = w.current();
  if (cur->created == 0)
    return WEFT_OK;
  alignas(64) task waiter{};
  waiter.flags = TASK_WAITER;
  waiter.arg = reinterpret_cast<void *>(static_cast<intptr_t>(w.id()));
  waiter.owner = static_cast<uint16_t>(w.id());
  waiter.refs.store(1, std::memory_order_relaxed);
  if (engine_->wait_deps(w, cur, &waiter, deps, ndeps)) {
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
  if (!done()) {
    wait_scope ws(w.wait_state(), wait_kind::taskgroup, cur);
    g->count.fetch_or(kChildWaiting |
                          (uint64_t(w.id()) << kChildWaiterShift),
                      std::memory_order_seq_cst);
    w.wait_until(done);
  }
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
  num_sleeping_.fetch_sub(1, std::memory_order_relaxed);
  w.sleep_word_.fetch_add(1, std::memory_order_release);
  futex_wake(w.sleep_word_, 1);
  return true;
}

void runtime::wake(int id) { try_wake(*workers_[id]); }

void runtime::wake_one() {
  int n = nthreads();
  unsigned start = wake_cursor_.fetch_add(1, std::memory_order_relaxed);
  for (int i = 0; i < n; ++i)
    if (try_wake(*workers_[(start + i) % n]))
      return;
}

namespace {
bool prio_less(const task *a, const task *b) {
  return a->priority < b->priority;
}
} // namespace

void runtime::push_priority(task *t) {
  std::lock_guard<std::mutex> lk(prio_lock_);
  prio_heap_.push_back(t);
  std::push_heap(prio_heap_.begin(), prio_heap_.end(), prio_less);
  prio_count_.fetch_add(1, std::memory_order_release);
}

task *runtime::pop_priority() {
  std::lock_guard<std::mutex> lk(prio_lock_);
  if (prio_heap_.empty())
    return nullptr;
  std::pop_heap(prio_heap_.begin(), prio_heap_.end(), prio_less);
  task *t = prio_heap_.back();
  prio_heap_.pop_back();
  prio_count_.fetch_sub(1, std::memory_order_relaxed);
  return t;
}

// ---------------------------------------------------------------------------
weft_stats runtime::stats() const {
  weft_stats s;
  std::memset(&s, 0, sizeof s);
  for (worker *w : workers_) {
    worker_counters &c = w->counters();
    s.tasks_spawned += c.spawned.load(std::memory_order_relaxed);
    s.tasks_run += c.finished.load(std::memory_order_relaxed);
    s.steals += c.steals.load(std::memory_order_relaxed);
    s.immediate_successors += c.immediate.load(std::memory_order_relaxed);
    s.sleeps += c.sleeps.load(std::memory_order_relaxed);
    s.engine_full += c.full.load(std::memory_order_relaxed);
    s.tasks_undeferred += c.undeferred.load(std::memory_order_relaxed);
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
  std::fprintf(stderr,
               "weft stats: engine=%s threads=%d tasks=%llu run=%llu "
               "undeferred=%llu deps=%llu edges=%llu steals=%llu immediate=%llu "
               "sleeps=%llu "
               "full=%llu peak_map=%llu modelled_cycles=%llu\n",
               s.engine, const_cast<runtime *>(this)->nthreads(),
               (unsigned long long)s.tasks_spawned,
               (unsigned long long)s.tasks_run,
               (unsigned long long)s.tasks_undeferred,
               (unsigned long long)s.deps_submitted,
               (unsigned long long)s.edges, (unsigned long long)s.steals,
               (unsigned long long)s.immediate_successors,
               (unsigned long long)s.sleeps,
               (unsigned long long)s.engine_full,
               (unsigned long long)s.peak_map_entries,
               (unsigned long long)s.modelled_cycles);
}

} // namespace weft

namespace weft {
void runtime::take_exception_into_tls(std::exception_ptr *e) {
  set_pending_exception(*e);
  delete e;
}
} // namespace weft
