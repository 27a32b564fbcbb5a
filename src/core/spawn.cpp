// Spawning: a task's registration with its parent, its taskgroup and the
// throttle, its submission to the engine (with back-pressure), and the ways a
// task becomes ready outside the engine's answer (engine_ready, fulfill).
#include "core/engine_host.hpp"
#include "core/in_place.hpp"
#include "core/mailbox.hpp"
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
// The throttle (core/throttle.hpp). A creator runs ready tasks itself before
// creating more when it has made more ready tasks than kThrottlePerThread
// per thread (tasks in its deque, the figure libgomp uses), or when the
// parent has more unfinished children per thread than its window:
// kNarrowPerThread, or kWidePerThread for coarse tasks that run as chains
// or name no dependences at all, and for medium ones that run as chains.
// A wide window lets a creator make the tasks that still wait for a
// predecessor well ahead, so that a chain (a block's kernels, iteration
// after iteration) exists when its first task runs and goes on back to back
// on that worker through immediate successors while its data is in cache;
// for fine tasks (shorter than a hand-off: the throttle runs them in place)
// it would only make descriptors go cold, and where the
// tasks do not run as chains (a stencil's tasks each wait for several of
// the previous sweep) it only costs, so they keep the narrow one. Both
// bound memory and the dependence map. The checks come once in
// kThrottleCheckEvery children (throttle.hpp).

// The grain clock: the TSC on x86-64 (one instruction), else nanoseconds.
// Tasks longer than kCoarseTicks on average are coarse (about 4 us at a
// 2.6 GHz TSC); the estimate is taken over at least kGrainTasks tasks
// (so the clock is read at most once per 64 tasks finished).
#if defined(__x86_64__)
inline uint64_t grain_clock() { return __builtin_ia32_rdtsc(); }
inline constexpr uint64_t kCoarseTicks = 10000;
#else
inline uint64_t grain_clock() { return mail_clock_ns(); }
inline constexpr uint64_t kCoarseTicks = 4000;
#endif
inline constexpr uint64_t kGrainTasks = 64;

// A creator not throttled tries its tasks in place once in this many
// throttle checks (spawn_as): once per 1,024 children.
inline constexpr uint32_t kInlineProbeEvery = 64;
// A hand-off's cost to the creator, in grain-clock ticks per task (about
// 200 ns: run_now_instead, still_throttled).
#if defined(__x86_64__)
inline constexpr uint64_t kHandOffTicks = 512;
#else
inline constexpr uint64_t kHandOffTicks = 200;
#endif
// What each dependence adds to a hand-off's cost to the creator (its
// insertion in the dependence map, against a lookup in place: about 12 ns;
// a throttled creator of 15-dependence tasks spends 3.7-5 ns per
// dependence in place and 47 once they are handed off, docs/benchmarks.md).
#if defined(__x86_64__)
inline constexpr uint64_t kDepHandOffTicks = 32;
#else
inline constexpr uint64_t kDepHandOffTicks = 12;
#endif

// The grain of `tasks` tasks finished in `ticks` (throttle.hpp);
// WEFT_THROTTLE_GRAIN forces fine or coarse.
task_grain grain_of(uint64_t ticks, uint64_t tasks) {
  if (g_throttle_grain != throttle_grain::automatic)
    return g_throttle_grain == throttle_grain::coarse ? task_grain::coarse
                                                      : task_grain::fine;
  if (ticks > kCoarseTicks * tasks)
    return task_grain::coarse;
  return ticks > kHandOffTicks * tasks ? task_grain::medium : task_grain::fine;
}

uint64_t team_threads(worker &w) {
  return static_cast<uint64_t>(w.current_team()->size());
}

} // namespace

// Inline: the throttled creator asks after every child it makes.
__attribute__((always_inline)) inline bool
runtime::over_throttle(worker &w, task *parent, unsigned halve) {
  // The call first: nothing needs to live across it.
  uint64_t unfinished = unfinished_children(w, parent);
  uint64_t n = team_threads(w);
  uint64_t window = w.window_;
  if (unfinished > (window * n >> halve))
    return true;
  // Under the narrow window the ready tasks (at most the unfinished ones)
  // cannot be over the throttle if the children are not.
  return window > kThrottlePerThread &&
         static_cast<uint64_t>(w.slot()->deque.size_hint()) >
             (kThrottlePerThread * n >> halve);
}

inline void runtime::update_grain(worker &w) {
  // The time this worker took per task it finished since the last estimate
  // (spawning, waiting and idling included: an upper bound on the grain).
  uint64_t fin = w.counters().finished_all();
  // The graph's shape: the share of the tasks every worker (the team, for
  // one team) finished in the interval that ran as immediate successors
  // (the creator itself may run few of them). Read once per interval.
  uint64_t team_fin = 0, team_chained = 0;
  auto team_counts = [&w, &team_fin, &team_chained] {
    runtime &rt = w.rt();
    for (int i = 0, n = rt.nthreads(); i < n; ++i)
      if (worker *x = rt.workers_[i]) {
        team_fin += x->counters().finished_all();
        team_chained += x->counters().immediate.load(std::memory_order_relaxed);
      }
  };
  if (w.grain_ticks_ == 0) {
    w.grain_ticks_ = grain_clock();
    w.grain_finished_ = fin;
    w.grain_ordered_ = w.spawned_ordered_;
    team_counts();
    w.team_finished_ = team_fin;
    w.team_chained_ = team_chained;
    if (g_throttle_window == throttle_window::wide)
      w.window_ = static_cast<uint32_t>(kWidePerThread);
  } else if (fin - w.grain_finished_ >= kGrainTasks) {
    uint64_t now = grain_clock();
    task_grain grain = grain_of(now - w.grain_ticks_, fin - w.grain_finished_);
    // Alone, nobody takes a hand-off: medium tasks are run as fine ones (a
    // creator one window ahead keeps their descriptors warm: h264dec's
    // 0.5 us macroblocks took 8% longer at one thread under the wide one).
    if (grain == task_grain::medium && team_threads(w) == 1)
      grain = task_grain::fine;
    bool coarse = grain == task_grain::coarse;
    w.coarse_ = coarse;
    w.grain_ticks_ = now;
    w.grain_finished_ = fin;
    team_counts();
    // A probe: coarse tasks under the narrow window, at the first such
    // interval and then once in kProbeEvery.
    bool wide = w.window_ > kNarrowPerThread;
    bool probe = coarse && !wide && w.narrow_intervals_++ % kProbeEvery == 0;
    // Whether the shape matters: some of this worker's children in the
    // interval named a dependence.
    bool ordered = w.spawned_ordered_ != w.grain_ordered_;
    w.grain_ordered_ = w.spawned_ordered_;
    w.window_ =
        window_for(g_throttle_window, grain, team_fin - w.team_finished_,
                   team_chained - w.team_chained_, wide, probe, ordered);
    w.team_finished_ = team_fin;
    w.team_chained_ = team_chained;
  }
  if (w.window_ > kNarrowPerThread)
    worker_counters::bump(w.counters().wide_checks);
}

// At a probe point (spawn_as): whether the team's tasks since the last
// one were fine enough to try in place. The workers finished a task per
// fewer than 4 x kHandOffTicks of each one's time (overheads included):
// sparselu's or stream-deps' coarse tasks are never probed (their probe
// would run 16 of them on the creator while the others wait for work),
// a worker stealing empty tasks one by one always is. The first point
// only records.
// WEFT_THROTTLE_GRAIN forces the verdict (fine: every point probes).
__attribute__((noinline)) bool runtime::worth_probing(worker &w) {
  if (g_throttle_grain != throttle_grain::automatic)
    return g_throttle_grain == throttle_grain::fine;
  runtime &rt = w.rt();
  uint64_t fin = 0;
  for (int i = 0, n = rt.nthreads(); i < n; ++i)
    if (worker *x = rt.workers_[i])
      fin += x->counters().finished_all();
  const uint64_t now = grain_clock();
  const bool fine = w.probe_ticks_ != 0 && fin > w.probe_finished_ &&
                    now > w.probe_ticks_ &&
                    (now - w.probe_ticks_) * team_threads(w) <
                        (fin - w.probe_finished_) * 4 * kHandOffTicks;
  w.probe_ticks_ = now;
  w.probe_finished_ = fin;
  return fine;
}

// Out of line: the callers' fast paths (a creator that is not at a check)
// stay as small as before.
__attribute__((noinline)) bool
runtime::throttle_recheck(worker &w, task *parent, unsigned halve) {
  update_grain(w);
  return over_throttle(w, parent, halve);
}

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

  // An earlier child of parent that names one of t's addresses waits in the
  // backlog: t goes behind it (the engine orders a task only against the
  // siblings it has seen). Siblings that name none of them go on to the
  // engine: nothing orders them against the backlogged ones.
  if (!w.backlog_.empty()) {
    drain_backlog(w);
    if (backlog_conflicts(w, parent, deps, ndeps)) {
      const uint32_t id =
          trace_point::spawn_created(w, t, parent, deps, ndeps, t0);
      to_backlog(w, parent, t, deps, ndeps);
      trace_point::spawn_end(w, id, t0);
      // Back-pressure still: with too many unfinished children, run ready
      // tasks (not waiting for any: what frees the engine may be later in
      // this task's own code).
      while (over_throttle(w, parent, 1) && w.help_once()) {
      }
      return WEFT_OK;
    }
  }

  if (parent->created % kThrottleCheckEvery == 0) {
    // Fine tasks last time in place: in place again (still_throttled).
    // A creator the other workers keep below the window never runs a
    // task in place, so never learns that its tasks are too fine to hand
    // off: once in kInlineProbeEvery checks it runs them in place for an
    // interval as if they were (a coarse interval releases it again).
    // A parent whose tasks this worker last measured too fine to hand off
    // is probed whatever the team's recent cost (a release by a preemption
    // or a slow phase is not the end of it).
    if (w.throttled_ != parent && !w.inline_fine_ &&
        ++w.inline_probes_ % kInlineProbeEvery == 0)
      w.inline_fine_ = worth_probing(w) || w.fine_parent_ == parent;
    w.throttled_ =
        w.inline_fine_ || throttle_recheck(w, parent, 0) ? parent : nullptr;
    // A throttled creator's first in-place interval is measured from here:
    // a probe of coarse tasks costs 16 of them run here.
    w.inline_ticks_ = w.throttled_ == parent ? grain_clock() : 0;
    // The first in-place call after a check makes every test (the grain
    // may have changed): the gate opens there.
    w.inline_gate_ = kThrottleCheckEvery | kGateBlocked;
    w.inline_misses_ = 0;
    w.inline_slow_ = 0;
    w.inline_fine_seen_ = false;
  }
  if (w.throttled_ == parent && t->priority <= 0 && feeds_thieves(w) &&
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
      to_backlog(w, parent, t, deps, ndeps);
      return WEFT_OK;
    }
  }
  w.spawned_ordered_ += ndeps != 0; // the throttle's shape test
  if (r == submit_result::ready)
    queue_ready(t);
  trace_point::spawn_end(w, id, t0);
  if (r == submit_result::serialize) {
    serialize(w, parent, t);
    return WEFT_OK;
  }

  if (w.throttled_ == parent) {
    // Still too much: run ready tasks until half of it is done, leaving the
    // thieves theirs (else the child just queued for them would run here).
    while (over_throttle(w, parent, 1) && feeds_thieves(w, 1) &&
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

void runtime::to_backlog(worker &w, task *parent, task *t, const weft_dep *deps,
                         int ndeps) {
  w.backlog_.push_back({parent, t, {deps, deps + ndeps}});
  w.inline_gate_ |= kGateBlocked; // in_place_now tests the backlog
  worker_counters &c = w.counters();
  worker_counters::bump(c.backlogged);
  if (w.backlog_.size() > c.backlog_peak.load(std::memory_order_relaxed))
    c.backlog_peak.store(w.backlog_.size(), std::memory_order_relaxed);
}

bool runtime::backlog_conflicts(worker &w, task *parent, const weft_dep *deps,
                                int ndeps) {
  for (const worker::backlog_entry &e : w.backlog_) {
    if (e.parent != parent)
      continue;
    for (const weft_dep &a : e.deps)
      for (int i = 0; i < ndeps; ++i)
        if (a.addr == deps[i].addr)
          return true;
  }
  return false;
}

std::size_t runtime::backlogged(worker &w, task *parent) {
  std::size_t n = 0;
  for (const worker::backlog_entry &e : w.backlog_)
    n += e.parent == parent;
  return n;
}

bool runtime::drain_backlog(worker &w) {
  std::vector<worker::backlog_entry> &b = w.backlog_;
  // Parents whose oldest entry stays: their later entries stay too (the
  // first kMaxBlocked remembered, the others found among the entries
  // before: a worker's stack can hold more parents with backlogged
  // children, and the running task's come last).
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
    for (std::size_t j = 0; nblocked == kMaxBlocked && !behind && j < i; ++j)
      behind = b[j].parent == parent;
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
    if (nblocked < kMaxBlocked)
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

// At an in-place recheck: whether the throttled creator stays throttled.
// Tasks that cost the creator less in place (their body and its own code
// between two of them, the clock read here once per kThrottleCheckEvery)
// than a hand-off would cost it keep running in place whatever the
// queue: a deferred task costs its creator a descriptor, the engine's
// submission (more with each dependence: kDepHandOffTicks) and a deque
// push, and the worker that takes it a steal, so handing such tasks to an
// idle worker only slows the creator (2 threads, task-free 0: a fifth of
// the tasks stolen made them several times slower, docs/benchmarks.md).
// The runtime's own known costs of the in-place path (tracing's records)
// are allowed for on top. Coarser ones go back to the throttle's test,
// which releases the creator below half the window, once the slowness is
// evidence (slow_interval_releases, throttle.hpp): two slow intervals in
// a row, or one far too slow for a creator with no fine interval since
// its spawn check; a single slow interval keeps it throttled.
// The verdict is kept (worker::inline_fine_): a creator whose last
// measured interval was fine is throttled again at its next spawn check
// (spawn_as) without waiting for the window to fill, and its first
// interval is measured from that check; after a release its parent is
// probed again at the next probe point (worker::fine_parent_) until two
// throttled stretches in a row have had no fine interval.
// WEFT_THROTTLE_GRAIN forces the verdict, and the clock is not read.
__attribute__((noinline)) bool runtime::still_throttled(worker &w,
                                                        task *parent) {
  if (g_throttle_grain != throttle_grain::automatic) {
    w.inline_fine_ = g_throttle_grain == throttle_grain::fine;
    w.inline_misses_ = 0;
    if (w.inline_fine_) {
      worker_counters::bump(w.counters().kept_fine);
      return true;
    }
    return over_throttle(w, parent, 1);
  }
  const uint64_t tasks = kThrottleCheckEvery;
  uint64_t now = grain_clock();
  uint64_t last = w.inline_ticks_;
  w.inline_ticks_ = now;
  const uint64_t hand_off =
      kHandOffTicks + trace_point::in_place_allowance(w.inline_deps_ != 0) +
      kDepHandOffTicks * w.inline_deps_;
  // An interval in which more than a quarter of the tasks could not run
  // in place (their predecessors unfinished) measured deferrals, not
  // in-place tasks (a chain's first task after a release waits for the
  // one deferred before it; sparselu's coarse tasks mostly wait).
  const bool deferrals = w.inline_misses_ * 4 > tasks;
  w.inline_misses_ = 0;
  // No interval measured (no earlier recheck): the verdict stands.
  bool release = last != 0 || !w.inline_fine_;
  if (last != 0 && !deferrals) {
    if (too_fine_to_hand_off(last, now, tasks, hand_off)) {
      w.inline_fine_ = true;
      w.inline_fine_seen_ = true;
      w.inline_slow_ = 0;
      w.fine_parent_ = parent;
      w.fine_parent_misses_ = 0;
      // Evidence against a coarse grain too (kCoarseTicks per task is 20
      // hand-offs): the grain is estimated at spawn checks, which a creator
      // kept in place by this verdict skips (spawn_as), so an earlier
      // phase's coarse verdict would stay and feeds_thieves would defer
      // these tasks whenever a thief had drained the deque.
      w.coarse_ = false;
      release = false;
    } else {
      if (w.inline_slow_ < 255)
        ++w.inline_slow_;
      release = slow_interval_releases(w.inline_fine_seen_, w.inline_slow_,
                                       now >= last ? (now - last) / tasks : 0,
                                       hand_off);
    }
  }
  if (!release) {
    if (w.inline_slow_ == 0)
      worker_counters::bump(w.counters().kept_fine);
    return true;
  }
  w.inline_fine_ = false;
  // A probe or a throttle that found no fine interval, the second in a
  // row (one may be a preemption of its first interval): the parent's
  // tasks are no longer fine.
  if (!w.inline_fine_seen_ && w.fine_parent_ == parent &&
      ++w.fine_parent_misses_ >= 2)
    w.fine_parent_ = nullptr;
  return over_throttle(w, parent, 1);
}

bool runtime::run_now_instead(worker &w, const weft_dep *deps, int ndeps) {
  task *parent = w.current();
  if (w.throttled_ != parent || !w.backlog_.empty())
    return false;
  // Counted as spawned and run: the caller runs it at once.
  auto in_place = [&w] { return count_in_place(w); };
  // The engine's answer without dependences is the same for every task
  // (engine.hpp): asked once, here (the gate's test needs it, whether this
  // task has dependences or not).
  if (w.ready_without_deps_ < 0)
    w.ready_without_deps_ = w.rt().engine().ready_now(w, parent, nullptr, 0);
  // This call's place in the interval (the gate's low bits: 1 is the
  // recheck), and the gate opened for in_place_now when every test of its
  // common case holds.
  const uint32_t left = w.inline_gate_ & ~kGateBlocked;
  const bool check = left <= 1;
  const uint32_t next =
      check ? static_cast<uint32_t>(kThrottleCheckEvery) : left - 1;
  const bool open = w.ready_without_deps_ > 0 && !w.coarse_grain();
  w.inline_gate_ = next | (open ? 0 : kGateBlocked);
  // A task with no dependences between two checks returns here, before
  // anything that needs a frame.
  if (__builtin_expect(!check && ndeps == 0 && w.ready_without_deps_ > 0, 1))
    return feeds_thieves(w) && in_place();
  // The grain is estimated at the spawns' checks only (they see every
  // task this worker finished, these included).
  // The interval's dependences per task, by this one (read at the recheck
  // only: nothing is added per task).
  if (check)
    w.inline_deps_ = static_cast<uint32_t>(ndeps);
  if (check && !still_throttled(w, parent)) {
    w.throttled_ = nullptr;
    w.inline_ticks_ = 0;
    return false;
  }
  if (ndeps == 0) {
    if (!w.ready_without_deps_) {
      ++w.inline_misses_;
      return false;
    }
  } else if (!w.rt().engine().ready_now(w, parent, deps, ndeps)) {
    // Through w: `this` need not survive the check's call (one register
    // fewer to save on every call).
    ++w.inline_misses_;
    return false;
  }
  return feeds_thieves(w) && in_place();
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
