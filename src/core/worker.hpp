// A worker: one thread and its descriptor pool. It runs as a member of one
// team at a time (its slot there holds its ready deque and implicit task)
// and waits for the next team between parallel regions. Scheduling order
// when a worker looks for work: the task its last retirement made ready
// (immediate successor), then the team's prioritised tasks, its own deque
// (newest first), its mailbox (tasks sent to it, core/mailbox.hpp), the
// engine's ready queue, then stealing (oldest first) from a random member of
// its team, then letters that waited past their patience in other members'
// mailboxes.
#pragma once

#include "base/check.hpp"
#include "base/futex.hpp"
#include "ready_deque.hpp"
#include "task.hpp"
#include "task_pool.hpp"
#include "team.hpp"
#include "wait_report.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

class runtime;
struct inbox_job;
namespace trace {
struct thread_log;
}

// Set once by a front end that uses worker::set_task_data: releases the
// data a task left there when it ends.
extern void (*task_data_end)(void *data);

// Set by the OpenMP front end: OpenMP's task scheduling constraint for
// tied tasks applies (worker::find_any). The native API has no tied tasks.
extern std::atomic<bool> tied_scheduling;

// Single-writer counters: only the owning worker writes, anyone may read.
// A task the throttle runs in place (runtime::count_in_place) is spawned,
// finished and undeferred at once: it counts once, in `in_place`, and
// spawned, finished and undeferred leave it out (one store per such task
// instead of three; docs/benchmarks.md, "The in-place path's
// instructions"). Read the totals with the *_all functions.
struct worker_counters {
  std::atomic<uint64_t> spawned{0}, finished{0}, steals{0}, immediate{0},
      sleeps{0}, full{0}, undeferred{0}, serialized{0}, in_place{0};
  uint64_t spawned_all() const { return load(spawned) + load(in_place); }
  uint64_t finished_all() const { return load(finished) + load(in_place); }
  uint64_t undeferred_all() const { return load(undeferred) + load(in_place); }
  // Throttle checks made with the wide window (coarse tasks, spawn.cpp),
  // and in-place checks that kept the creator throttled because its tasks
  // cost less in place than a hand-off would (spawn.cpp, kHandOffTicks).
  std::atomic<uint64_t> wide_checks{0}, kept_fine{0};
  // Tasks that went through the backlog (worker::backlog_), and its
  // largest depth.
  std::atomic<uint64_t> backlogged{0}, backlog_peak{0};
  static void bump(std::atomic<uint64_t> &c) {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  static uint64_t load(const std::atomic<uint64_t> &c) {
    return c.load(std::memory_order_relaxed);
  }
};

class alignas(64) worker {
public:
  worker(runtime &rt, int id);
  ~worker();
  worker(const worker &) = delete;
  worker &operator=(const worker &) = delete;

  int id() const { return id_; }
  runtime &rt() { return rt_; }
  task *current() const { return current_; }
  task_pool &pool() { return pool_; }
  // Blocks that never become tasks (payloads, the sw engine's successor
  // chunks): a thief's stale check reads task words (parent, group) of any
  // block of pool(), so plain bytes must not go there.
  task_pool &side_pool() { return side_pool_; }
  worker_counters &counters() { return c_; }
  wait_record &wait_state() { return wait_; }
  bool sleeping() const { return sleeping_.load(std::memory_order_relaxed); }
  // The implicit task of the worker's slot in its current team.
  task *root() { return &slot_->implicit; }
  team *current_team() const { return team_; }
  int slot_index() const { return slot_index_; }
  team_slot *slot() const { return slot_; }
  // The throttle's last grain estimate called this worker's tasks coarse.
  bool coarse_grain() const { return coarse_; }
  // The worker's trace buffer (WEFT_TRACE), nullptr when not recording.
  trace::thread_log *trace_log() const { return trace_; }

  // A fresh descriptor from this worker's pool, owned by the caller.
  task *alloc_task(weft_task_fn fn, void *arg);
  // Every field a fresh descriptor needs (owner: this worker).
  void init_task(task *t, weft_task_fn fn, void *arg);
  // Room for t's copied argument: in the descriptor, a second pool block or
  // the heap (freed with the task).
  void *alloc_payload(task *t, std::size_t size, std::size_t align);
  // Drop one reference; the last one frees the descriptor. References are
  // only ever given at submission, so seeing 1 means ours is the last.
  void release_ref(task *t) {
    int32_t r = t->refs.load(std::memory_order_acquire);
    WEFT_CHECK(r > 0, "task %p: a reference released that was never given",
               static_cast<void *>(t));
    if (r == 1 || t->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      free_task(t);
  }
  void free_task(task *t);

  // t may run now. Called by engines (successors of a retirement: the first
  // one becomes this worker's immediate successor) and by spawn.
  void make_ready(task *t);
  // Queue a ready task on this worker and wake a sleeper if there is one.
  void push_ready(task *t);

  // Run tasks until done() holds; sleeps when there is nothing to run and
  // is woken by whoever makes done() true through runtime::wake(id()).
  template <class Done> void wait_until(Done done);
  // Run one available task, if any; returns whether it did.
  bool help_once();
  // Run the oldest job of the team's inbox (then of the native team's, for
  // a worker in another team: arrived remote calls are queued there), if any
  // and if may_serve(); returns whether it did (the job and its children
  // have finished then).
  bool run_external();
  // Runs j now on this worker as run_external runs an inbox job (a task of
  // its own; j and its children have finished on return), for a job this
  // thread received itself (a waiting worker that polls the network);
  // false, j not run, when may_serve() does not hold.
  bool run_job(inbox_job *j);
  // The most inbox jobs one thread's stack runs nested while a tied task
  // waits beneath them (may_serve; docs/places.md "Nested waits").
  static constexpr uint32_t kMaxServedUnderTied = 16;
  // Occupy slot i of t with the implicit task as the current task; returns
  // what leave_team needs to restore the previous membership.
  struct membership {
    team *t;
    team_slot *slot;
    int index;
    task *current;
    void *data;
    int64_t mark;
    task *barrier;
  };
  membership enter_team(team *t, int i);
  void leave_team(const membership &m);

  // Threads other than the one that made the runtime: wait for a team to
  // join (assign), run its body, repeat until told to exit.
  void thread_main();
  // Give this idle worker slot i of t (t == nullptr: exit). Called by the
  // team's master; the worker must be idle.
  void assign(team *t, int i);

  // Runs t, then the chain of immediate successors it leaves behind.
  void run_chain(task *t);
  // Runs fn(arg) here and now as a task of its own, never submitted to the
  // engine: OpenMP's undeferred and included tasks, and tasks the throttle
  // runs in place. Its descriptor is this worker's for the nesting depth
  // (inline_tasks_), kept initialised between uses, so a task that only
  // runs costs a few stores; what its body dirtied (children, a dependence
  // domain, a child's exception) is settled at its end (end_inline). Its
  // children, if any, have finished when it returns. deps/ndeps: its
  // dependences, already satisfied (the throttle's in-place tasks), for the
  // trace only.
  void run_inline(weft_task_fn fn, void *arg, uint16_t flags,
                  const weft_dep *deps = nullptr, int ndeps = 0);
  // run_inline, its common case inline where core/in_place.hpp is
  // included (the other cases call run_inline).
  inline void run_in_place(weft_task_fn fn, void *arg, uint16_t flags,
                           const weft_dep *deps = nullptr, int ndeps = 0);
  // run_in_place with a traced task's common case inline too (its trace
  // points in the caller's frame): for the callers with dependences.
  inline void run_in_place_traced_here(weft_task_fn fn, void *arg,
                                       uint16_t flags, const weft_dep *deps,
                                       int ndeps);
  // Runs a task that was never submitted to the engine (undeferred).
  void run_undeferred(task *t) {
    t->flags |= TASK_NO_SUCCESSORS;
    execute(t);
  }
  // Add this worker's pending finished-children counts to their parent.
  void flush_finished_children();

  // A front end's data for the task running on this worker (the OpenMP
  // ICVs of an explicit task that changed or inherited them): nullptr when
  // a task starts, restored when it ends; a non-null value left at a task's
  // end is passed to runtime::task_data_end.
  void *task_data() const { return task_data_; }
  void set_task_data(void *d) { task_data_ = d; }

  // The current task waits in a barrier from now until leave_barrier: the
  // tied-task constraint does not hold for it there (tied_limit).
  task *enter_barrier() {
    task *prev = barrier_;
    barrier_ = current_;
    return prev;
  }
  void leave_barrier(task *prev) { barrier_ = prev; }

private:
  friend class runtime;
  task *find_work();
  task *find_any();
  // OpenMP's Task Scheduling Constraint 2: while tied task c is suspended
  // here (a scheduling point other than a barrier), a new tied task may
  // start only if it descends from c (and so from every tied task
  // suspended below c). Returns c, the innermost such task on this
  // thread's stack, or nullptr when anything may start. Untied tasks count
  // as tied here: weft never moves a suspended task, so a task started
  // above a waiting untied task u that blocked (on a lock whose holder
  // waits for u) would hang u (docs/openmp.md). Every task that runs on
  // this stack is tied (or counts as tied), so the innermost one is the
  // current task, unless that one waits in a barrier (barrier_): no
  // pointer of its own to keep in every task's frame.
  task *tied_limit() const {
    return __builtin_expect(tied_scheduling.load(std::memory_order_relaxed),
                            0) &&
                   current_ != barrier_
               ? current_
               : nullptr;
  }
  // Whether x may start under tied_limit() == limit, for x taken from
  // anywhere but this worker's deque at or above mark_: a child of limit
  // or of the current task, a member of a taskgroup opened in either (or
  // nested in one), or a detached task's completion. Conservative: other
  // descendants of limit are refused.
  bool may_start(task *x, task *limit) const;
  // may_start's test as a thief can make it before the take (steal_if):
  // x's parent is limit or the current task, or x is a member of a
  // taskgroup either of them has open. Nested groups opened by descendants
  // are not followed (their openers take those members).
  bool may_steal(task *x, task *limit) const;
  // Whether this worker may start an inbox job now. A job is a root: no
  // task of the program descends from it or waits for it, so starting it
  // above a suspended tied task breaks no scheduling constraint of the
  // program's tasks (OpenMP's constraint orders tied tasks among
  // themselves); it only delays the tied task's resumption until the job
  // ends. Under tied_limit() at most kMaxServedUnderTied jobs run nested
  // on this stack; without a tied task beneath, any number.
  bool may_serve() const {
    return !tied_limit() || served_ < kMaxServedUnderTied;
  }
  // The native team's inbox when this worker is in another team (an OpenMP
  // region's), else nullptr: remote calls arrive there
  // (places' submit_to_workers), and a worker waiting inside a region
  // serves them too.
  inbox *native_inbox() const;
  // Whether an inbox this worker serves may hold a job.
  bool inbox_maybe_nonempty() const;
  // A task taken that may not start here: where any worker can take it.
  void put_aside(task *t);
  // A task refused here stays where others can take it: wake a sleeper.
  void pass_wake();
  // The first task of the team's priority heap that may start under limit.
  task *pop_priority_allowed(task *limit);
  // The first task of the team's priority heap that may start under limit.
  task *steal(task *limit);
  // A letter taken from a mailbox, if it may start under limit (else it is
  // put aside).
  task *accept_mail(task *t, task *limit);
  // The oldest letter of another member's mailbox that waited past
  // kMailPatienceNs, if any.
  task *take_foreign_mail(task *limit);
  bool work_visible();
  // Tasks the engine queued for this worker while it is in no team.
  void drain_engine();
  template <class Cond> void sleep_unless(Cond cond);
  void execute(task *t);
  // The frame of a task run on this thread's stack (run_body, run_in_place,
  // run_inline_task): t becomes the current task (for the front ends'
  // omp_get_* and taskwait, the parent of what it creates, and the innermost
  // tied task: tied_limit; untied or not, weft never moves a started task),
  // with no front-end data and its deque mark (what is pushed from now on
  // descends from it); the destructor puts the enclosing task's three back.
  // Inline: these are the stores every task pays. kInPlace (run_in_place):
  // t's parent is the current task and there is no front-end data when the
  // frame starts, and the runner leaves none at its end (end_task_data), so
  // that the frame keeps only the mark (the parent comes back from
  // t->parent).
  template <bool kInPlace = false> class task_frame {
  public:
    __attribute__((always_inline)) task_frame(worker &w, task *t)
        : w_(w), t_(t), prev_(kInPlace ? nullptr : w.current_),
          prev_data_(kInPlace ? nullptr : w.task_data_), prev_mark_(w.mark_) {
      w.current_ = t;
      if constexpr (!kInPlace)
        w.task_data_ = nullptr;
      w.mark_ = w.slot_->deque.next_index();
    }
    __attribute__((always_inline)) ~task_frame() {
      if constexpr (kInPlace) {
        w_.current_ = t_->parent;
      } else {
        w_.current_ = prev_;
        w_.task_data_ = prev_data_;
      }
      w_.mark_ = prev_mark_;
    }
    task_frame(const task_frame &) = delete;
    task_frame &operator=(const task_frame &) = delete;

  private:
    worker &w_;
    task *t_;
    task *prev_;
    void *prev_data_;
    int64_t prev_mark_;
  };
  void run_body(task *t);
  // run_in_place (kTraceHere false) and run_in_place_traced_here (true).
  template <bool kTraceHere>
  __attribute__((always_inline)) inline void
  run_in_place_as(weft_task_fn fn, void *arg, uint16_t flags,
                  const weft_dep *deps, int ndeps);
  // How run_in_place_at records: not at all (off), after testing
  // trace::on() (test), or knowing it on (on).
  enum class in_place_trace : uint8_t { off, test, on };
  template <in_place_trace kTrace>
  __attribute__((always_inline)) inline void
  run_in_place_at(uint32_t depth, task *t, weft_task_fn fn, void *arg,
                  uint16_t flags, const weft_dep *deps, int ndeps);
  void run_inline_task(task &t);
  // run_inline beyond kInlineDepth nested levels: a descriptor on this stack.
  void run_inline_on_stack(weft_task_fn fn, void *arg, uint16_t flags,
                           const weft_dep *deps, int ndeps);
  // The descriptor for in-place tasks at nesting depth d, made on first use.
  task *new_inline_task(uint32_t d);
  // The end of an in-place task whose body left something to settle: an
  // open taskgroup (fatal), children to wait for, a dependence domain, an
  // exception of a child. Leaves t as new_inline_task made it.
  void end_inline(task &t);
  // Until every child of t, a task run inline here, has finished.
  void wait_inline_children(task &t);
  void finish(task *t);
  void complete(task *t); // retirement and counts (after a detach event)
  void end_task_data();
  void record_exception(task *t, std::exception_ptr e);
  // record_exception of the exception being handled, out of line: the
  // in-place runner's frame keeps no exception_ptr of its own.
  void record_current_exception(task *t);
  void count_finished_child(task *parent);

  runtime &rt_;
  int id_;
  task *current_;
  void *task_data_ = nullptr;
  // The next index of this worker's deque when current_ started: what is
  // pushed from then on descends from current_ (tasks that start while
  // current_ is suspended descend from it), what lies below does not.
  int64_t mark_ = 0;
  // The task waiting in a barrier on this thread's stack, if any
  // (enter_barrier; tied_limit).
  task *barrier_ = nullptr;
  task *immediate_ = nullptr;
  bool in_retire_ = false;
  // Inbox jobs running on this thread's stack (run_job; may_serve). In the
  // padding after in_retire_: no field the task path reads moves.
  uint32_t served_ = 0;
  // Finished children of one parent not yet added to its counter: a worker
  // finishing many siblings in a row pays one atomic, not one per task
  // (Phentos' private retirement counters). Flushed before the worker idles
  // and every kFlushFinishedEvery children.
  task *unflushed_parent_ = nullptr;
  uint64_t unflushed_ = 0;
  // The most finished children kept back before they are added (one atomic
  // per this many; the throttle's window is 64 or 1024 per thread).
  static constexpr uint64_t kFlushFinishedEvery = 32;
  // The parent that had too many unfinished children at its last check.
  task *throttled_ = nullptr;
  // Children this worker created that a full engine kept refusing, in
  // creation order, with their dependences: their creator went on (what
  // frees the engine may come later in its own code: a detached task's
  // fulfil). runtime::drain_backlog offers them again whenever this worker
  // spawns, waits or looks for work, and runs one here, outside the engine,
  // once its creator is the running task and every earlier child of it has
  // finished.
  struct backlog_entry {
    task *parent;
    task *t;
    std::vector<weft_dep> deps;
  };
  std::vector<backlog_entry> backlog_;
  // The grain of the tasks this worker runs, estimated at throttle checks
  // (runtime::update_grain): clock ticks and tasks finished at the start
  // of the current interval, the team's tasks finished and run as
  // immediate successors then, and the window the last estimate chose.
  uint64_t grain_ticks_ = 0;
  uint64_t grain_finished_ = 0;
  uint64_t team_finished_ = 0;
  uint64_t team_chained_ = 0;
  uint32_t narrow_intervals_ = 0; // coarse ones (probes: throttle.hpp)
  // Children this worker submitted that named dependences, and their count
  // at the interval's start.
  uint64_t spawned_ordered_ = 0;
  uint64_t grain_ordered_ = 0;
  uint32_t window_ = 64; // unfinished children per thread (spawn.cpp)
  bool coarse_ = false;  // the last estimate's grain (spawn.cpp)
  // Parents one of whose backlog entries runs serialized on this stack:
  // their later entries stay in the backlog until it has finished (the
  // engine never saw it, so it would order nothing after it).
  std::vector<task *> backlog_held_;
  // The throttle's in-place gate (in_place_now): the in-place calls left
  // until the next recheck (1: this one is it), or'ed with kGateBlocked
  // when the common case's other tests must be made (core/throttle.hpp).
  // Set with throttled_ (spawn.cpp), which starts null.
  uint32_t inline_gate_ = 0;
  // The grain clock at the last in-place recheck (0: none since the
  // creator was last released by the throttle).
  uint64_t inline_ticks_ = 0;
  // Whether the last interval measured there was too fine to hand off.
  bool inline_fine_ = false;
  // Slow intervals in a row since the last fine one (still_throttled's
  // hysteresis), and whether an interval since the last spawn check was
  // fine.
  uint8_t inline_slow_ = 0;
  bool inline_fine_seen_ = false;
  // Dependences of the task at the in-place recheck, taken for each of
  // the interval's (a hand-off's cost grows with them: still_throttled).
  uint32_t inline_deps_ = 0;
  // The parent whose tasks this worker last measured too fine to hand off
  // in place: probed again after a release (spawn_as), until two throttled
  // stretches in a row found no fine interval (fine_parent_misses_).
  task *fine_parent_ = nullptr;
  uint8_t fine_parent_misses_ = 0;
  uint32_t inline_probes_ = 0; // unthrottled checks (spawn.cpp's probe)
  // The grain clock and the team's finished tasks at the last probe point.
  uint64_t probe_ticks_ = 0;
  uint64_t probe_finished_ = 0;
  // Tasks that could not run in place since the last in-place recheck.
  uint32_t inline_misses_ = 0;
  // The engine's ready_now for a task with no dependences (the same for
  // every task: engine.hpp), asked once; -1 until then.
  int8_t ready_without_deps_ = -1;
  // Descriptors of the in-place tasks running on this thread, one per
  // nesting depth (run_inline): pool blocks kept initialised; deeper
  // levels use one on the stack.
  static constexpr uint32_t kInlineDepth = 32;
  uint32_t inline_depth_ = 0;
  task *inline_tasks_[kInlineDepth] = {};
  uint64_t rng_;
  team *team_ = nullptr;
  team_slot *slot_ = nullptr;
  int slot_index_ = 0;
  task_pool pool_;
  task_pool side_pool_;
  worker_counters c_;
  wait_record wait_;
  alignas(64) std::atomic<uint32_t> sleep_word_{0};
  std::atomic<bool> sleeping_{false};
  // Team assignment (assign / thread_main).
  alignas(64) std::atomic<uint32_t> job_seq_{0};
  std::atomic<bool> job_sleeping_{false};
  team *job_team_ = nullptr;
  int job_slot_ = 0;
  trace::thread_log *trace_ = nullptr;

public:
  // Workers kept by a master for its next region at this nesting depth
  // (libgomp's hot team), and the team object they last formed.
  std::vector<team *> team_cache;
  int master_depth = 0;
};

} // namespace weft
