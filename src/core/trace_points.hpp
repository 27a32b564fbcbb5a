// Where the core records a trace (WEFT_TRACE): one inline hook per event,
// each with its own test of whether a trace is being recorded. Unrecorded,
// a hook costs one load and one well-predicted branch, and the core's code
// reads as if there were no tracing. Hooks that open a span (a task's run,
// a spawn, a wait) return a token; the hook that closes the span records
// only if its token says the opening one did, so the two always pair.
//
// What each event means, and the records it writes: docs/trace-format.md.
// The recorder's life (start_from_env, attach, stop, forget_in_child) is not
// an event: runtime.cpp calls it where the runtime starts, makes a worker and
// stops.
#pragma once

#include "core/task.hpp"
#include "core/team.hpp"
#include "core/worker.hpp"
#include "trace/record/recorder.hpp"

#include <weft/weft.h>

#include <cstdint>

namespace weft::trace_point {

// The trace flags of a task descriptor's.
inline uint8_t flags_of(const task *t) {
  return static_cast<uint8_t>(
      (t->flags & TASK_FINAL ? trace::flag_final : 0) |
      (t->flags & TASK_DETACH ? trace::flag_detach : 0));
}

// ---- a task runs (worker::execute) -------------------------------------
// The descriptor may be recycled once the task has finished: the token keeps
// its id.
struct run_token {
  bool on = false;
  bool completion = false; // a detached task's completion (no body)
  uint32_t id = 0;
  uint64_t from = 0; // the body's end, or the completion's start
};

// t starts running now (task_begin).
inline run_token task_begin(worker &w, task *t) {
  run_token k;
  if (__builtin_expect(trace::on(), 0)) {
    k.on = true;
    k.id = t->trace_id;
    trace::begin(*w.trace_log(), k.id);
  }
  return k;
}

// t's body returned (task_end); its finish starts (not timed apart: the
// next schedule segment starts here).
inline void task_end(worker &w, run_token &k) {
  if (__builtin_expect(k.on, 0)) {
    k.from = trace::ticks_early();
    trace::ended(*w.trace_log(), k.id, k.from);
  }
}

// A detached task whose event was fulfilled is completed now (no body).
inline run_token completion_begin(task *t) {
  run_token k;
  if (__builtin_expect(trace::on(), 0)) {
    k.on = true;
    k.completion = true;
    k.id = t->trace_id;
    k.from = trace::ticks();
  }
  return k;
}

// The task is retired: a completion's finish segment ends; counters may be
// sampled.
inline void task_finished(worker &w, const run_token &k) {
  if (__builtin_expect(k.on, 0)) {
    trace::thread_log &l = *w.trace_log();
    if (__builtin_expect(k.completion, 0)) {
      uint64_t to = trace::ticks_early();
      trace::overhead(l, trace::overhead_kind::finish, k.id, k.from, to);
      l.mark = to;
    } else {
      trace::retired(l, k.id, k.from);
    }
    trace::maybe_sample(l, w, k.from);
  }
}

// ---- finding work (worker::find_work, run_chain) -------------------------
// Start of a search for work: the schedule segment starts at the end of the
// last task if nothing was recorded since.
inline uint64_t search_begin(worker &w) {
  if (__builtin_expect(trace::on(), 0)) {
    trace::thread_log &l = *w.trace_log();
    return l.mark ? l.mark : trace::ticks_early();
  }
  return 0;
}

// The search found t (or nothing).
inline void search_end(worker &w, task *t, uint64_t from) {
  if (__builtin_expect(from != 0, 0)) {
    trace::thread_log &l = *w.trace_log();
    if (t) {
      l.mark = from;
      trace::scheduled(l, t->trace_id);
    } else {
      l.mark = 0;
    }
  }
}

// The worker takes t, the immediate successor its last task made ready.
inline void scheduled(worker &w, task *t) {
  if (__builtin_expect(trace::on(), 0))
    trace::scheduled(*w.trace_log(), t->trace_id, true);
}

// ---- a task run in place (worker::run_inline) -----------------------------
// t (on the caller's stack) is created and starts now (one task_inline
// record, which its end completes when the body recorded nothing; with
// dependences, inline_begin_deps below). Only what
// the program asked for is marked undeferred: a replay may run a throttled task
// elsewhere. Its start is read early (no fence, half the cost): the record
// names no dependence, so no reader orders it against another thread's
// events, and on this thread it follows the creator's last event. Right
// after a short one like it, no clock read at all (trace::inline_begin_now:
// an untimed task of a task_inline_run). inline_begin_traced, below.
// (Out of line: the untraced path stays one load and one branch.)

// t has the ndeps > 0 dependences deps (the throttle ran it in place once
// the engine said they were satisfied): recorded with them, so that a replay
// orders it after its predecessors and its successors after it: one
// task_inline_dep with a single dependence (trace::inline_begun_dep), else
// as a created task's are (trace::inline_begun_deps). Its start follows
// their ends, perhaps on other threads: read after a fence (with one
// dependence, not read when it is an untimed task of a run:
// trace::inline_continued).
// The run key (trace::run_key) is taken from the caller's flags, from
// which the trace's follow (t.flags is flags | TASK_INLINE).
[[gnu::noinline]] inline void
inline_begin_deps_timed(trace::thread_log &l, task &t, uint32_t pid,
                        uint16_t flags, const weft_dep *deps, int ndeps) {
  uint8_t undeferred = flags & TASK_THROTTLED ? 0 : trace::flag_undeferred;
  uint8_t f = static_cast<uint8_t>(undeferred | flags_of(&t));
  l.settle_before_timed();
  if (ndeps == 1) {
    t.trace_id = trace::inline_begun_dep(l, pid, deps[0], f, trace::ticks());
    l.r_key = trace::run_key(pid, flags, deps[0].mode);
  } else {
    t.trace_id =
        trace::inline_begun_deps(l, pid, deps, ndeps, f, trace::ticks());
  }
}
// The untimed task of a run inline in the caller (trace::inline_continued:
// no clock read, a few compares, under trace::on()'s test), the rest out
// of line.
[[gnu::always_inline]] inline void
inline_begin_deps(worker &w, task &t, task *parent, uint16_t flags,
                  const weft_dep *deps, int ndeps) {
  trace::thread_log &l = *w.trace_log();
  uint32_t pid = parent ? parent->trace_id : 0;
  if (ndeps == 1 && trace::inline_continued(
                        l, trace::run_key(pid, flags, deps[0].mode),
                        reinterpret_cast<uint64_t>(deps[0].addr), t.trace_id))
    return;
  inline_begin_deps_timed(l, t, pid, flags, deps, ndeps);
}

// A task without dependences given to inline_begin: timed unless it
// continues a run.
[[gnu::noinline]] inline void inline_begin_timed(trace::thread_log &l, task &t,
                                                 uint32_t pid, uint16_t flags) {
  uint8_t undeferred = flags & TASK_THROTTLED ? 0 : trace::flag_undeferred;
  l.settle_before_timed();
  t.trace_id = trace::inline_begun(
      l, pid, static_cast<uint8_t>(undeferred | flags_of(&t)),
      trace::ticks_early());
  l.r_key = trace::run_key(pid, flags, 0);
}
[[gnu::noinline]] inline void
inline_begin_traced(worker &w, task &t, task *parent, uint16_t flags) {
  trace::thread_log &l = *w.trace_log();
  uint32_t pid = parent ? parent->trace_id : 0;
  if (trace::inline_continued(l, trace::run_key(pid, flags, 0), 0, t.trace_id))
    return;
  inline_begin_timed(l, t, pid, flags);
}

// deps/ndeps: the task's dependences, when it has any (a task the throttle
// runs in place once they are satisfied).
inline bool inline_begin(worker &w, task &t, task *parent, uint16_t flags,
                         const weft_dep *deps = nullptr, int ndeps = 0) {
  if (__builtin_expect(trace::on(), 0)) {
    if (__builtin_expect(ndeps == 0, 1))
      inline_begin_traced(w, t, parent, flags);
    else
      inline_begin_deps(w, t, parent, flags, deps, ndeps);
    return true;
  }
  return false;
}
// inline_begin when the caller knows trace::on() and its tasks mostly have
// one dependence (worker::run_in_place_traced_here: weft_spawn's and
// GOMP_task's tasks with dependences): that case tested first.
[[gnu::always_inline]] inline void
inline_begin_on_deps(worker &w, task &t, task *parent, uint16_t flags,
                     const weft_dep *deps, int ndeps) {
  if (__builtin_expect(ndeps == 1, 1))
    inline_begin_deps(w, t, parent, flags, deps, 1);
  else if (ndeps == 0)
    inline_begin_traced(w, t, parent, flags);
  else
    inline_begin_deps_timed(*w.trace_log(), t, parent ? parent->trace_id : 0,
                            flags, deps, ndeps);
}

[[gnu::noinline]] inline void inline_end_timed(trace::thread_log &l,
                                               uint32_t id) {
  trace::inline_ended(l, id, trace::ticks_early());
}
// An untimed task's end inline here (trace::inline_end_now).
inline void inline_end(worker &w, const task &t, bool on) {
  if (__builtin_expect(on, 0)) {
    trace::thread_log &l = *w.trace_log();
    if (l.tail == (trace::thread_log::tail_iend | trace::thread_log::tail_more))
      l.tail = trace::thread_log::tail_iend;
    else
      inline_end_timed(l, t.trace_id);
  }
}

// What recording costs a task run in place, in grain-clock ticks (the trace
// clock's), for the throttle to allow for (runtime::still_throttled); 0
// when not recording. deps: the creator's tasks have dependences (a fenced
// start and a task_inline_dep record, or an untimed task of a run).
inline uint64_t in_place_allowance(bool deps) {
  return __builtin_expect(trace::on(), 0)
             ? (deps ? trace::g_in_place_dep_ticks : trace::g_in_place_ticks)
             : 0;
}

// ---- spawning (runtime::spawn) ---------------------------------------------
// The spawn segment starts; its token is its start time (0: not recording).
inline uint64_t spawn_begin() {
  return __builtin_expect(trace::on(), 0) ? trace::ticks_early() : 0;
}

// t is created (task_create and its dependences). Returns t's id: t may run
// and be recycled once submitted.
inline uint32_t spawn_created(worker &w, task *t, task *parent,
                              const weft_dep *deps, int ndeps, uint64_t t0) {
  if (__builtin_expect(t0 != 0, 0)) {
    uint32_t id = trace::created(*w.trace_log(), parent ? parent->trace_id : 0,
                                 deps, ndeps, flags_of(t), t0);
    t->trace_id = id;
    return id;
  }
  return 0;
}

// The spawn segment ends (at the engine's first answer, or before the task
// runs here); later calls with the same token record nothing.
inline void spawn_end(worker &w, uint32_t id, uint64_t &t0) {
  if (__builtin_expect(t0 != 0, 0)) {
    trace::spawned(*w.trace_log(), id, t0, trace::ticks_early());
    t0 = 0;
  }
}

// ---- waits (taskwait, taskwait depend, taskgroup end) ----------------------
struct wait_token {
  bool on = false;
  uint32_t id = 0;
  trace::wait_kind kind{};
};

inline wait_token wait_begin(worker &w, trace::wait_kind kind, task *waiting,
                             const weft_dep *deps, int ndeps) {
  wait_token k;
  if (__builtin_expect(trace::on(), 0)) {
    k.on = true;
    k.id = waiting->trace_id;
    k.kind = kind;
    trace::wait_begin(*w.trace_log(), kind, k.id, deps, ndeps);
  }
  return k;
}

inline void wait_end(worker &w, const wait_token &k) {
  if (__builtin_expect(k.on, 0))
    w.trace_log()->put(trace::kind::wait_end, static_cast<uint8_t>(k.kind), 0,
                       trace::ticks(), k.id, 0);
}

// ---- teams (runtime::start_team / finish_team, worker::enter_team) ---------
// A region of n threads begins in the master's current task.
inline void region_begin(worker &master, team *t, int n) {
  if (__builtin_expect(trace::on(), 0)) {
    uint32_t enc = master.current()->trace_id;
    t->trace_parent = enc;
    master.trace_log()->put(trace::kind::region_begin, 0,
                            static_cast<uint32_t>(n), trace::ticks(), enc, 0);
  }
}

inline void region_end(worker &master) {
  if (__builtin_expect(trace::on(), 0))
    master.trace_log()->put(trace::kind::region_end, 0, 0, trace::ticks(),
                            master.current()->trace_id, 0);
}

// ---- region tasks (src/regions) --------------------------------------------
// The region task that w's current core task runs has an analysed argument:
// type its WEFT_ARG_* bits, owner the scheduler owning it, what its region
// id or object address (rtask_arg). Recorded as the task starts.
inline void rtask_arg(worker &w, uint8_t type, uint32_t owner, uint64_t what) {
  if (__builtin_expect(trace::on(), 0))
    w.trace_log()->put(trace::kind::rtask_arg, type, owner, trace::ticks(),
                       w.current()->trace_id, what);
}

// w's current task made region id, inside region parent (region_new).
inline void region_new(worker &w, uint32_t parent, uint32_t id) {
  if (__builtin_expect(trace::on(), 0))
    w.trace_log()->put(trace::kind::region_new, 0, parent, trace::ticks(),
                       w.current()->trace_id, id);
}

// w's current task spawns the region task numbered seq with n analysed
// arguments (rtask_spawn), each then given to rspawn_arg with the time this
// returns (0: not recorded).
inline uint64_t rtask_spawn(worker &w, uint64_t seq, uint32_t n) {
  if (!__builtin_expect(trace::on(), 0))
    return 0;
  uint64_t at = trace::ticks();
  w.trace_log()->put(trace::kind::rtask_spawn, 0, n, at, w.current()->trace_id,
                     seq);
  return at;
}

// w's current task calls weft_wait on n analysed arguments (rwait), each
// then given to rspawn_arg with the time this returns (0: not recorded).
inline uint64_t rwait(worker &w, uint32_t n) {
  if (!__builtin_expect(trace::on(), 0))
    return 0;
  uint64_t at = trace::ticks();
  w.trace_log()->put(trace::kind::rwait, 0, n, at, w.current()->trace_id, 0);
  return at;
}

// One argument of the spawn that rtask_spawn returned `at` for: type its
// WEFT_ARG_* bits, what its region id or address, within the object's
// region or the region's parent.
inline void rspawn_arg(worker &w, uint64_t at, uint8_t type, uint32_t within,
                       uint64_t what) {
  if (at != 0)
    w.trace_log()->put(trace::kind::rspawn_arg, type, within, at,
                       w.current()->trace_id, what);
}

// The region analysis of a weft_rspawn by w's current task, from t0
// (spawn_begin's token) to now: an overhead spawn segment, so that a replay
// charges the model's spawn cost instead of weft's (nothing runs inside it).
inline void rspawn_analysed(worker &w, uint64_t t0) {
  if (__builtin_expect(t0 != 0, 0))
    trace::overhead(*w.trace_log(), trace::overhead_kind::spawn,
                    w.current()->trace_id, t0, trace::ticks_early());
}

// w placed the ready region task numbered seq: scheduler `from` handled
// it, leaf `leaf` and worker `chosen` were chosen (rplace).
inline void rplace(worker &w, uint64_t seq, uint32_t from, uint32_t leaf,
                   int chosen) {
  if (__builtin_expect(trace::on(), 0) && seq != 0)
    w.trace_log()->put(trace::kind::rplace, 0, static_cast<uint32_t>(chosen),
                       trace::ticks(), w.current()->trace_id,
                       trace::rplace_arg(seq, from, leaf));
}

// w's current core task runs the region task numbered seq (rtask_run).
inline void rtask_run(worker &w, uint64_t seq) {
  if (__builtin_expect(trace::on(), 0))
    w.trace_log()->put(trace::kind::rtask_run, 0, 0, trace::ticks(),
                       w.current()->trace_id, seq);
}

// The region task numbered seq that w's current core task runs has ended;
// its arguments are released next (rtask_done).
inline void rtask_done(worker &w, uint64_t seq) {
  if (__builtin_expect(trace::on(), 0))
    w.trace_log()->put(trace::kind::rtask_done, 0, 0, trace::ticks(),
                       w.current()->trace_id, seq);
}

// w's current task marks the begin or end of phase `name` (phase; the name
// checked by the caller).
inline void phase(worker &w, trace::phase_edge e, const char *name) {
  if (__builtin_expect(trace::on(), 0)) {
    uint64_t arg = 0;
    uint32_t count = 0;
    trace::pack_phase_name(name, arg, count);
    w.trace_log()->put(trace::kind::phase, static_cast<uint8_t>(e), count,
                       trace::ticks(), w.current()->trace_id, arg);
  }
}

// A member's implicit task in a team begins / ends.
inline void implicit_begin(worker &w, task *implicit, const team *t) {
  if (__builtin_expect(trace::on(), 0))
    trace::implicit_begin(*w.trace_log(), implicit, t->trace_parent);
}

inline void implicit_end(worker &w, const task *implicit) {
  if (__builtin_expect(trace::on(), 0))
    w.trace_log()->put(trace::kind::task_end, 0, 0, trace::ticks(),
                       implicit->trace_id, 0);
}

} // namespace weft::trace_point
