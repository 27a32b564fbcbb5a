// Spawning: a task's registration with its parent, its taskgroup and the
// throttle, its submission to the engine (with back-pressure), and the ways a
// task becomes ready outside the engine's answer (engine_ready, fulfill).
#include "core/engine_host.hpp"
#include "core/runtime.hpp"
#include "core/trace_points.hpp"

#include "base/error.hpp"

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

namespace {
// A parent with more unfinished children than this per thread runs ready
// tasks itself before creating more (bounds memory and the dependence map,
// as libgomp's task throttling does).
inline constexpr uint64_t kThrottlePerThread = 64;
inline constexpr uint64_t kThrottleCheckEvery = 16;
uint64_t throttle_limit(worker &w) {
  return kThrottlePerThread * static_cast<uint64_t>(w.current_team()->size());
}

} // namespace

uint64_t runtime::unfinished_children(worker &w, task *parent) {
  w.flush_finished_children();
  return parent->created -
         finished_children(parent->children.load(std::memory_order_acquire));
}

template <class Queue>
__attribute__((always_inline)) inline int
runtime::spawn_as(worker &w, task *t, const weft_dep *deps, int ndeps,
                  Queue queue_ready) {
  // Traced: task_create at entry; the spawn segment ends at the engine's
  // first answer (or before the task runs here).
  uint64_t t0 = trace_point::spawn_begin();
  task *parent = w.current();
  // Atomic: a thief may read it before taking t (worker::steal).
  std::atomic_ref<task *>(t->parent).store(parent, std::memory_order_relaxed);
  t->home = w.slot();
  taskgroup_state *g = parent->cur_group ? parent->cur_group : parent->group;
  // Atomic as parent is (worker::may_steal).
  std::atomic_ref<taskgroup_state *>(t->group).store(g,
                                                     std::memory_order_relaxed);
  if (g)
    g->count.fetch_add(1, std::memory_order_relaxed);
  ++parent->created;
  worker_counters::bump(w.counters().spawned);
  team_slot &slot = *w.slot();
  slot.spawned.store(slot.spawned.load(std::memory_order_relaxed) + 1,
                     std::memory_order_release);

  // Earlier children of parent wait in the backlog: t goes behind them
  // (the engine orders a task only against the siblings it has seen).
  if (!w.backlog_.empty()) {
    drain_backlog(w);
    if (backlogged(w, parent) != 0) {
      const uint32_t id =
          trace_point::spawn_created(w, t, parent, deps, ndeps, t0);
      w.backlog_.push_back({parent, t, {deps, deps + ndeps}});
      trace_point::spawn_end(w, id, t0);
      return WEFT_OK;
    }
  }

  if (parent->created % kThrottleCheckEvery == 0)
    w.throttled_ =
        unfinished_children(w, parent) > throttle_limit(w) ? parent : nullptr;
  if (w.throttled_ == parent && t->priority <= 0 &&
      engine_->ready_now(w, parent, deps, ndeps)) {
    // Plenty of queued work already: run it here and now (libgomp does the
    // same). It ends before any later sibling is submitted, so nothing
    // needs to be recorded for it.
    worker_counters::bump(w.counters().undeferred);
    // Not flag_undeferred: the program did not ask for it, and a replay on
    // more cores must be free to run it elsewhere (its body shows as a task
    // nested in the creator's, as help during a wait does).
    uint32_t id = trace_point::spawn_created(w, t, parent, deps, ndeps, t0);
    trace_point::spawn_end(w, id, t0);
    w.run_undeferred(t);
    return WEFT_OK;
  }

  // t may run and be recycled once submitted: its id is kept.
  const uint32_t id = trace_point::spawn_created(w, t, parent, deps, ndeps, t0);
  submit_result r;
  backoff idle(kFullBackoff);
  while ((r = engine_->submit(w, parent, t, deps, ndeps)) ==
         submit_result::full) {
    // Back-pressure: make progress, then offer the task again. With no work
    // to make progress with for a while, stop waiting for room here: every
    // entry of a tiny engine may be held by running tasks that wait to
    // submit too, or by tasks only the creator's later code completes (a
    // detached task's fulfil). Once every earlier child has finished, t
    // runs here (ordered against every sibling); before that it goes to
    // the backlog and the creator goes on.
    worker_counters::bump(w.counters().full);
    trace_point::spawn_end(w, id, t0);
    if (w.help_once()) {
      idle.reset();
    } else if (!idle.pause()) {
      if (unfinished_children(w, parent) == 1) {
        r = submit_result::serialize;
        break;
      }
      w.backlog_.push_back({parent, t, {deps, deps + ndeps}});
      return WEFT_OK;
    }
  }
  if (r == submit_result::ready)
    queue_ready(t);
  trace_point::spawn_end(w, id, t0);
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

int runtime::spawn(worker &w, task *t, const weft_dep *deps, int ndeps) {
  return spawn_as(w, t, deps, ndeps, [&w](task *x) { w.push_ready(x); });
}

int runtime::spawn_to(worker &w, task *t, int member) {
  team *home = w.current_team();
  if (member < 0 || member >= home->size())
    return set_error(WEFT_EINVAL,
                     "spawn_to: member %d is not in [0, %d) (the team of "
                     "worker %d)",
                     member, home->size(), w.id());
  return spawn_as(w, t, nullptr, 0,
                  [home, member](task *x) { home->mail(member, x); });
}

void runtime::serialize(worker &w, task *parent, task *t) {
  // Every earlier sibling finished and no later one exists yet: t is ordered
  // after and before each of them whatever their dependences.
  worker_counters::bump(w.counters().serialized);
  wait_children(w, parent, parent->created - 1);
  w.run_undeferred(t);
}

std::size_t runtime::backlogged(worker &w, task *parent) {
  std::size_t n = 0;
  for (const worker::backlog_entry &e : w.backlog_)
    n += e.parent == parent;
  return n;
}

bool runtime::drain_backlog(worker &w) {
  std::vector<worker::backlog_entry> &b = w.backlog_;
  // Parents whose oldest entry stays: their later entries stay too.
  constexpr int kMaxBlocked = 8;
  task *blocked[kMaxBlocked];
  int nblocked = 0;
  bool progress = false;
  for (std::size_t i = 0; i < b.size();) {
    task *parent = b[i].parent;
    bool behind = false;
    for (int k = 0; k < nblocked; ++k)
      behind |= blocked[k] == parent;
    for (task *h : w.backlog_held_)
      behind |= h == parent;
    if (behind) {
      ++i;
      continue;
    }
    task *t = b[i].t;
    submit_result r = engine_->submit(w, parent, t, b[i].deps.data(),
                                      static_cast<int>(b[i].deps.size()));
    if (r == submit_result::ready || r == submit_result::pending) {
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
      progress = true;
      if (r == submit_result::ready)
        w.push_ready(t);
      continue;
    }
    worker_counters::bump(w.counters().full);
    // Still refused: it runs here once its parent runs here (a task started
    // on this stack above the parent need not descend from it: the
    // tied-task constraint) and every earlier child has finished.
    if (w.current() == parent &&
        unfinished_children(w, parent) == backlogged(w, parent)) {
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
      worker_counters::bump(w.counters().serialized);
      // Its later siblings wait in the backlog until it has finished: the
      // engine orders nothing after a task it never saw.
      w.backlog_held_.push_back(parent);
      w.run_undeferred(t);
      w.backlog_held_.pop_back();
      return true; // the backlog may have changed meanwhile
    }
    if (nblocked == kMaxBlocked)
      return progress;
    blocked[nblocked++] = parent;
    ++i;
  }
  return progress;
}

void runtime::drain_own_backlog(worker &w) {
  task *cur = w.current();
  for (backoff idle({kFullBackoff.spins, backoff_policy::kForever});
       backlogged(w, cur) != 0;) {
    if (drain_backlog(w) || w.help_once())
      idle.reset();
    else
      idle.pause();
  }
}

bool runtime::run_now_instead(worker &w, const weft_dep *deps, int ndeps) {
  task *parent = w.current();
  if (w.throttled_ != parent || !w.backlog_.empty())
    return false;
  if (++w.inline_checks_ % kThrottleCheckEvery == 0 &&
      unfinished_children(w, parent) <= throttle_limit(w) / 2) {
    w.throttled_ = nullptr;
    return false;
  }
  if (!engine_->ready_now(w, parent, deps, ndeps))
    return false;
  // Counted as spawned and run: the caller runs it at once.
  worker_counters::bump(w.counters().spawned);
  worker_counters::bump(w.counters().finished);
  worker_counters::bump(w.counters().undeferred);
  return true;
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

team_slot *runtime::home_slot(task *t) { return t->home; }

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

} // namespace weft
