#include "nexus_engine.hpp"

#include "base/backoff.hpp"
#include "base/error.hpp"
#include "base/fence.hpp"
#include "base/futex.hpp"
#include "core/engine_host.hpp"

#include <chrono>

namespace weft {

namespace {

// The manager's idle wait: spin, then yield, then sleep until poked.
constexpr backoff_policy kManagerBackoff{256, 16};
// A worker waiting for the manager to catch up (it is never far behind).
constexpr backoff_policy kCatchUpBackoff{64, backoff_policy::kForever};

} // namespace

nexus_engine::nexus_engine(const nexus_config &cfg)
    : cfg_(cfg), threaded_(cfg.mode == nexus_mode::thread),
      unit_(cfg, *this, threaded_) {}

nexus_engine::~nexus_engine() { stop(); }

nexus_engine::per_worker &nexus_engine::pw(worker &w) {
  return pw_.get(w.id());
}

void nexus_engine::start(runtime &rt) {
  rt_ = &rt;
  if (threaded_ && !manager_.joinable())
    manager_ = std::thread([this] { manager_main(); });
}

void nexus_engine::stop() {
  if (!manager_.joinable())
    return;
  stop_.store(true, std::memory_order_release);
  poke_manager();
  manager_.join();
}

// ---- the Nexus Plugin: formatting descriptors
// --------------------------------
bool nexus_engine::format(per_worker &p, task *parent, nexus_descriptor &d,
                          const weft_dep *deps, int ndeps, bool create_domain) {
  return nexus_prepare(d, parent, deps, ndeps, create_domain, p.spill,
                       domains_);
}

template <class Op>
nexus_refusal nexus_engine::run_inline(per_worker &p, Op op) {
  lock_.lock();
  current_ = &p;
  nexus_refusal r = op();
  task *t;
  while (unit_.ready_fifo().try_pop_exclusive(t))
    p.ready.push_back(t);
  current_ = nullptr;
  lock_.unlock();
  return r;
}

nexus_refusal nexus_engine::write_new(per_worker &p, nexus_descriptor &d) {
  nexus_refusal r = unit_.reserve(d);
  if (r != nexus_refusal::none)
    return r;
  nexus_own_params(d);
  if (!unit_.new_fifo().try_push(d)) {
    unit_.unreserve(d);
    nexus_free_params(d);
    bump(p.new_full);
    return nexus_refusal::pool; // any refusal: the caller answers full
  }
  poke_manager();
  return nexus_refusal::none;
}

// Nested programs stay live: a Task Pool can be full of parents that wait
// in taskwait for children which cannot enter it. A child without
// parameters has nothing the unit could order it against, so after a few
// refusals it goes to the core as ready, without the unit (engine_data
// stays 0: retire ignores it). Children with parameters are serialized by
// the core when the refusals go on (docs/engines.md).
constexpr uint32_t kBypassAfter = 4;

submit_result nexus_engine::refused(per_worker &p, task *t,
                                    const nexus_descriptor &d) {
  if (d.n != 0)
    return submit_result::full;
  if (p.refused_task != t) {
    p.refused_task = t;
    p.refusals = 0;
  }
  if (++p.refusals < kBypassAfter)
    return submit_result::full;
  p.refused_task = nullptr;
  bump(p.bypassed);
  return submit_result::ready;
}

submit_result nexus_engine::submit(worker &w, task *parent, task *t,
                                   const weft_dep *deps, int ndeps) {
  per_worker &p = pw(w);
  nexus_descriptor d;
  d.t = t;
  format(p, parent, d, deps, ndeps, true);
  if (!unit_.fits_ever(d)) {
    bump(p.serialized);
    return submit_result::serialize;
  }
  if (d.dom)
    d.dom->ref(); // the task's, while it is in the unit
  if (threaded_) {
    if (write_new(p, d) != nexus_refusal::none) {
      if (d.dom)
        d.dom->unref();
      return refused(p, t, d);
    }
    return submit_result::pending;
  }
  nexus_refusal r = run_inline(p, [&] { return unit_.insert(d); });
  if (r != nexus_refusal::none) {
    if (d.dom)
      d.dom->unref();
    return refused(p, t, d);
  }
  // A submission makes no other task ready: the Ready FIFO held t or nothing.
  bool ready = !p.ready.empty();
  p.ready.clear();
  return ready ? submit_result::ready : submit_result::pending;
}

// Thread mode: read the Ready FIFO into the pool of ready tasks. Tasks of
// other teams than the reader's go home through engine_host::ready, and
// so do tasks with a priority: into their team's priority queue, which the
// core serves first, highest first (as worker::push_ready does). Returns
// whether it sent a task home that way.
bool nexus_engine::drain_ready(worker &w) {
  task *t;
  if (!unit_.ready_fifo().try_pop(t))
    return false;
  team *mine = w.current_team();
  bool routed = false;
  do {
    team *home = engine_host::home_team(t);
    if (home == mine && t->priority <= 0) {
      pool_lock_.lock();
      ready_pool_.push_back({t, home});
      pooled_.store(ready_pool_.size(), std::memory_order_release);
      pool_lock_.unlock();
    } else {
      engine_host::ready(*rt_, t);
      routed = true;
    }
  } while (unit_.ready_fifo().try_pop(t));
  poke_manager(); // it may wait for room in the Ready FIFO
  return routed;
}

// The newest child of the task w runs (in a taskwait, its own children come
// first: depth first, as the deques give the sw engine), else the newest
// task of w's team, among the newest kPickWindow.
task *nexus_engine::pick(worker &w) {
  constexpr std::size_t kPickWindow = 16;
  if (pooled_.load(std::memory_order_acquire) == 0)
    return nullptr;
  task *cur = w.current();
  team *mine = w.current_team();
  pool_lock_.lock();
  std::size_t n = ready_pool_.size();
  std::size_t low = n > kPickWindow ? n - kPickWindow : 0;
  std::size_t found = n;
  for (std::size_t i = n; i-- > low;) {
    if (ready_pool_[i].home != mine)
      continue;
    if (ready_pool_[i].t->parent == cur) {
      found = i;
      break;
    }
    if (found == n)
      found = i;
  }
  task *t = nullptr;
  if (found < n) {
    t = ready_pool_[found].t;
    ready_pool_.erase(ready_pool_.begin() + static_cast<std::ptrdiff_t>(found));
    pooled_.store(ready_pool_.size(), std::memory_order_release);
  }
  pool_lock_.unlock();
  return t;
}

bool nexus_engine::catch_up(worker &w) {
  // Wait until the manager has inserted the New FIFO tasks and processed the
  // Finished FIFO words written before now. It is never far behind and waits
  // for nothing but room in the Ready FIFO, which we read meanwhile.
  uint64_t news = unit_.new_fifo().pushed();
  uint64_t finishes = unit_.finished_fifo().pushed();
  bool routed = false;
  for (backoff b(kCatchUpBackoff);; b.pause()) {
    routed |= drain_ready(w);
    if (unit_.caught_up(news, finishes))
      break;
  }
  routed |= drain_ready(w);
  return routed;
}

task *nexus_engine::fetch(worker &w) {
  // Catching up first puts the children a task just submitted (or the
  // successors of a task just retired) in the pool before we choose.
  bool routed = catch_up(w);
  // Tasks with a priority it read went to the team's priority queue: the
  // core serves that first, on its next look. Only those: a task already
  // there when the core called us is one it could not take (the tied-task
  // constraint: a task refused by a waiting worker goes there, put_aside),
  // and answering nothing then would keep this worker from the pool for as
  // long as the task stays, which can be for ever (every worker waiting in
  // a tied task, each needing a child in the pool: task_fib hung in thread
  // mode).
  if (team *mine = w.current_team();
      routed && mine && mine->has_priority_tasks())
    return nullptr;
  return pick(w);
}

bool nexus_engine::has_ready(worker &w) {
  if (!threaded_)
    return false;
  if (unit_.ready_fifo().maybe_nonempty())
    return true;
  if (pooled_.load(std::memory_order_acquire) == 0)
    return false;
  team *mine = w.current_team();
  pool_lock_.lock();
  bool any = false;
  for (const pooled &p : ready_pool_)
    if (p.home == mine) {
      any = true;
      break;
    }
  pool_lock_.unlock();
  return any;
}

void nexus_engine::retire(worker &w, task *t) {
  if (t->engine_data == 0)
    return; // run by the core without the engine (undeferred, serialized)
  uint32_t id = t->engine_data - 1;
  per_worker &p = pw(w);
  if (threaded_) {
    nexus_fifo<uint32_t> &ff = unit_.finished_fifo();
    if (!ff.try_push(id)) {
      // Full: the manager may itself wait for room in the Ready FIFO, so
      // empty that into the core meanwhile; it can then always progress.
      bump(p.finished_full);
      do {
        poke_manager();
        task *x;
        if (unit_.ready_fifo().try_pop(x))
          engine_host::ready(*rt_, x);
        else
          cpu_relax();
      } while (!ff.try_push(id));
    }
    poke_manager();
    return;
  }
  run_inline(p, [&] {
    unit_.finish(id);
    return nexus_refusal::none;
  });
  for (task *x : p.ready)
    w.make_ready(x); // siblings of t: the first runs next on this worker
  for (task *x : p.released)
    w.make_ready(x);
  p.ready.clear();
  p.released.clear();
}

wait_result nexus_engine::wait_deps(worker &w, task *parent, task *waiter,
                                    const weft_dep *deps, int ndeps) {
  per_worker &p = pw(w);
  nexus_descriptor d;
  d.t = waiter;
  d.waiter = true;
  if (!format(p, parent, d, deps, ndeps, false) || d.n == 0)
    return wait_result::none; // no sibling was ever submitted with deps
  if (!unit_.fits_ever(d)) {
    bump(p.wait_all);
    return wait_result::all;
  }
  d.dom->ref();
  if (threaded_) {
    // The waiter's room is free once the unit has caught up with the ends
    // of the children that finished; a full New FIFO empties by itself.
    catch_up(w);
    if (unit_.reserve(d) != nexus_refusal::none) {
      d.dom->unref();
      bump(p.wait_all);
      return wait_result::all;
    }
    nexus_own_params(d);
    while (!unit_.new_fifo().try_push(d)) {
      poke_manager();
      drain_ready(w);
      cpu_relax();
    }
    poke_manager();
    return wait_result::waiter; // the manager releases it
  }
  nexus_refusal r = run_inline(p, [&] { return unit_.insert(d); });
  if (r != nexus_refusal::none) {
    d.dom->unref();
    bump(p.wait_all);
    return wait_result::all;
  }
  bool released = false;
  for (task *x : p.released) {
    if (x == waiter)
      released = true;
    else
      w.make_ready(x);
  }
  for (task *x : p.ready)
    w.make_ready(x);
  p.ready.clear();
  p.released.clear();
  return released ? wait_result::none : wait_result::waiter;
}

void nexus_engine::children_done(worker &, task *) {
  // Every child finished; in thread mode the unit may still be reading
  // their ends, and each keeps the domain (its tag) until it has. The
  // domain lives on until task_end.
}

void nexus_engine::task_end(worker &, task *parent) {
  nexus_domain *d = domain_of(parent);
  parent->domain = nullptr;
  d->unref();
}

void nexus_engine::task_free(worker &, task *) {}

// ---- nexus_port
// ----------------------------------------------------------------
uint64_t nexus_engine::make_room() {
  if (!threaded_) {
    // The lock holder reads the Ready FIFO: one cycle's wait for the unit.
    task *t;
    while (unit_.ready_fifo().try_pop_exclusive(t))
      current_->ready.push_back(t);
    return 1;
  }
  // The manager waits for the workers to read it (fetch pokes it); they
  // were woken for each word and retire empties it when the Finished FIFO
  // is full, so the wait ends. The stall lasts as long as the wait, in
  // cycles of the unit's clock.
  auto t0 = std::chrono::steady_clock::now();
  manager_wait([this] { return unit_.ready_fifo().maybe_full(); });
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - t0)
                .count();
  uint64_t cycles =
      static_cast<uint64_t>(static_cast<double>(ns) * cfg_.clock_mhz / 1000.0);
  return cycles ? cycles : 1;
}

void nexus_engine::waiter_released(task *w) {
  if (threaded_)
    engine_host::ready(*rt_, w); // a TASK_WAITER: its thread resumes
  else
    current_->released.push_back(w);
}

void nexus_engine::ready_written() {
  // Wake one sleeping worker, whichever team it is in: workers are never
  // freed while the runtime lives (a team may be), and a worker that
  // fetches another team's task routes it home (engine_host::ready).
  // The fence pairs with the sleeper's heavy_fence (see worker::push_ready).
  light_fence();
  int n = engine_host::workers(*rt_);
  for (int i = 0; i < n; ++i) {
    unsigned k =
        (wake_cursor_ + static_cast<unsigned>(i)) % static_cast<unsigned>(n);
    if (engine_host::wake(*rt_, static_cast<int>(k))) {
      wake_cursor_ = k + 1;
      return;
    }
  }
}

// ---- thread mode: the manager
// --------------------------------------------------
void nexus_engine::poke_manager() {
  // Pairs with the same read-modify-write in manager_wait: the two are
  // ordered on one location, so either the manager sees what we wrote
  // before it sleeps, or we see it asleep and wake it. (An RMW rather than
  // a fence: ThreadSanitizer understands it.)
  mgr_order_.fetch_add(1, std::memory_order_acq_rel);
  if (mgr_sleeping_.load(std::memory_order_relaxed)) {
    mgr_word_.fetch_add(1, std::memory_order_release);
    futex_wake(mgr_word_, 1);
  }
}

template <class Cond> void nexus_engine::manager_wait(Cond blocked) {
  for (backoff idle(kManagerBackoff); blocked();) {
    if (!idle.pause()) {
      mgr_sleeping_.store(true, std::memory_order_seq_cst);
      uint32_t seen = mgr_word_.load(std::memory_order_acquire);
      mgr_order_.fetch_add(1, std::memory_order_acq_rel);
      if (blocked())
        futex_wait(mgr_word_, seen);
      mgr_sleeping_.store(false, std::memory_order_relaxed);
      idle.reset();
    }
  }
}

void nexus_engine::manager_main() {
  for (;;) {
    if (unit_.step())
      continue;
    if (stop_.load(std::memory_order_acquire) && unit_.idle())
      return;
    manager_wait([this] {
      return unit_.idle() && !stop_.load(std::memory_order_acquire);
    });
  }
}

std::unique_ptr<dependency_engine> make_nexus_engine() {
  return std::make_unique<nexus_engine>(nexus_config::from_env());
}

// ---- statistics
// ----------------------------------------------------------------
void nexus_engine::add_stats(engine_stats &out) const {
  const nexus_stats &s = unit_.stats();
  uint64_t new_full = 0, finished_full = 0, serialized = 0, wait_all = 0,
           bypassed = 0;
  pw_.for_each([&](int, const per_worker &p) {
    new_full += p.new_full.load(std::memory_order_relaxed);
    finished_full += p.finished_full.load(std::memory_order_relaxed);
    serialized += p.serialized.load(std::memory_order_relaxed);
    wait_all += p.wait_all.load(std::memory_order_relaxed);
    bypassed += p.bypassed.load(std::memory_order_relaxed);
  });
  uint64_t cycles = s.cycles.get();
  out.deps_submitted += s.deps.get();
  out.edges += s.kol_appends.get();
  if (s.peak_table.get() > out.peak_map_entries)
    out.peak_map_entries = s.peak_table.get();
  out.modelled_cycles += cycles;

  out.add("nexus.tasks.new", s.tasks_new.get());
  out.add("nexus.tasks.finished", s.tasks_finished.get());
  out.add("nexus.tasks.ready", s.tasks_ready.get());
  out.add("nexus.waiters", s.waiters.get());
  out.add("nexus.deps", s.deps.get());
  out.add("nexus.params", s.params.get());
  out.add("nexus.table.lookups", s.lookups.get());
  out.add("nexus.table.inserts", s.inserts.get());
  out.add("nexus.table.deletes", s.deletes.get());
  out.add("nexus.table.joins", s.joins.get());
  out.add("nexus.kol.appends", s.kol_appends.get());
  out.add("nexus.kol.kickoffs", s.kickoffs.get());
  out.add("nexus.kol.dummy_allocs", s.dummy_kol_allocs.get());
  out.add("nexus.kol.dummy_refills", s.dummy_kol_refills.get());
  out.add("nexus.pool.dummy_entries", s.dummy_entries.get());
  out.add("nexus.set_conflicts", s.set_conflicts.get());
  out.add("nexus.stall.pool", s.stall_pool.get());
  out.add("nexus.stall.dummy_kol", s.stall_dummy_kol.get());
  out.add("nexus.stall.ready_fifo", s.stall_ready.get());
  out.add("nexus.stall.new_fifo", new_full);
  out.add("nexus.stall.finished_fifo", finished_full);
  out.add("nexus.stall_cycles", s.stall_cycles.get());
  out.add("nexus.serialized", serialized);
  out.add("nexus.wait_all", wait_all);
  out.add("nexus.bypassed", bypassed);
  out.add("nexus.cycles", cycles);
  out.add("nexus.unit_ns", static_cast<uint64_t>(static_cast<double>(cycles) *
                                                 1000.0 / cfg_.clock_mhz));
  uint64_t wr = s.pcie_written.get(), rd = s.pcie_read.get();
  out.add("nexus.pcie.words_written", wr);
  out.add("nexus.pcie.words_read", rd);
  out.add("nexus.pcie_ns", wr * cfg_.pcie_write_ns + rd * cfg_.pcie_read_ns);
  out.add("nexus.peak.pool", s.peak_pool.get());
  out.add("nexus.peak.dummy_pool", s.peak_dummy_pool.get());
  out.add("nexus.peak.table", s.peak_table.get());
  out.add("nexus.peak.set", s.peak_set.get());
  out.add("nexus.peak.dummy_kol", s.peak_dummy_kol.get());
  out.add("nexus.peak.kol", s.peak_kol.get());
  out.add("nexus.peak.task_buffer", s.peak_task_buffer.get());
  out.add("nexus.peak.new_fifo", unit_.new_fifo().peak());
  out.add("nexus.peak.ready_fifo", unit_.ready_fifo().peak());
  out.add("nexus.peak.finished_fifo", unit_.finished_fifo().peak());
  out.add("nexus.peak.domains", domains_.peak());
}

} // namespace weft
