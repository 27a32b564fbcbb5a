// A throttled creator's task run in place, inline in the native API's entry
// points (api/c_api.cpp) and in spawn.cpp: the throttle's answer for a task
// without dependences between two checks (runtime::in_place_now) and the
// in-place run itself (worker::run_in_place), so that such a task costs one
// call frame (weft_spawn's) instead of three (weft_spawn,
// runtime::run_now_instead, worker::run_inline). docs/benchmarks.md, "The
// 0-dependence cells at 1 thread". The OpenMP front end's GOMP_task
// (gomp/task.cpp) runs its if(0), included and throttled tasks the same way
// ("... under the GOMP ABI").
#pragma once

#include "core/runtime.hpp"
#include "core/trace_points.hpp"

#include <cstdint>
#include <exception>

namespace weft {

// A throttled creator of coarse tasks runs a new child in place only while
// its deque still holds a ready task for every other member of the team;
// with fewer, the child is queued (and wakes a sleeper), so that a thief
// that has drained the deque finds work. The throttle decides at most once
// in kThrottleCheckEvery children and leaves the throttled state only below
// half its limit, which the children that wait for predecessors can keep it
// above: without this test rot-cc's creator ran up to 15 children of 40-120
// us in a row in place while the other worker, its deque empty, idled (a
// sixth of that worker's time at load 10-17; docs/benchmarks.md, "The
// coarse rows behind libgomp"). Fine tasks keep running in place: 15 of
// them idle a thief for microseconds, and queueing them costs more than
// they do. The owner's bottom is its own; top is written by thieves only
// when they steal. `taking` is 1 when the creator would take one of the
// deque's tasks itself (the help after a queued child).
__attribute__((always_inline)) inline bool
runtime::feeds_thieves(worker &w, uint64_t taking) {
  if (!w.coarse_grain())
    return true;
  uint64_t n = static_cast<uint64_t>(w.current_team()->size());
  return n == 1 ||
         static_cast<uint64_t>(w.slot()->deque.size_hint()) + 1 >= n + taking;
}

// A task run in place: counted as spawned, finished and undeferred, in
// one counter (worker_counters::in_place).
__attribute__((always_inline)) inline bool runtime::count_in_place(worker &w) {
  worker_counters::bump(w.counters().in_place);
  return true;
}

// run_now_instead's answer, its common case inline: a throttled creator's
// task between two rechecks runs in place when the gate is open (one word:
// no backlog, the engine asked once whether a task without dependences is
// ready, fine tasks; throttle.hpp), at once without dependences, after the
// engine's lookup with them. Anything else (a recheck, a closed gate) goes
// to run_now_instead; a creator that is not throttled answers no at once.
__attribute__((always_inline)) inline bool
runtime::in_place_now(worker &w, const weft_dep *deps, int ndeps) {
  task *parent = w.current();
  if (w.throttled_ != parent)
    return false;
  const uint32_t gate = w.inline_gate_;
  if (__builtin_expect(gate_open(gate), 1)) {
    w.inline_gate_ = gate - 1;
    if (ndeps == 0)
      return count_in_place(w);
    // As run_now_instead between rechecks: an unfinished predecessor
    // makes the task go the deferred way, counted as a miss.
    if (!w.rt().engine().ready_now(w, parent, deps, ndeps)) {
      ++w.inline_misses_;
      return false;
    }
    return count_in_place(w);
  }
  return w.rt().run_now_instead(w, deps, ndeps);
}

// A throttled creator's task without dependences between two rechecks,
// in_place_now's common case alone, for the entry points' first test: true
// (the task counted) when the running task's creator is throttled and the
// gate is open; false, nothing changed, otherwise (the caller then takes
// its general way, which asks in_place_now).
__attribute__((always_inline)) inline bool runtime::in_place_open(worker &w) {
  const uint32_t gate = w.inline_gate_;
  if (w.throttled_ != w.current() || !gate_open(gate))
    return false;
  w.inline_gate_ = gate - 1;
  return count_in_place(w);
}

// worker::run_inline's body, inline where the front ends run a task in
// place. The common case (not tracing, no front-end data, fewer than
// kInlineDepth levels, this depth's descriptor made) runs here; the others
// take run_inline, out of line, so that the caller's frame keeps only the
// worker, the descriptor, the depth and the mark across the body's call
// (no call before it).
__attribute__((always_inline)) inline void
worker::run_in_place(weft_task_fn fn, void *arg, uint16_t flags,
                     const weft_dep *deps, int ndeps) {
  run_in_place_as<false>(fn, arg, flags, deps, ndeps);
}

// run_in_place with a traced task's common case here too (the trace points
// inline in the caller's frame, run_in_place_at<on>), not out of line in
// run_inline, whose second frame and repeated tests cost a traced task
// more than its recording: for the callers with dependences (weft_spawn's
// spawn_general, GOMP_task's depend_task), whose frames already hold what
// the traced run needs; untraced, the same tests as run_in_place
// (docs/benchmarks.md, item 6). The fastest callers (a task without
// dependences run in place from weft_spawn or GOMP_task itself) keep
// run_in_place, which leaves the traced run out of their frames.
__attribute__((always_inline)) inline void
worker::run_in_place_traced_here(weft_task_fn fn, void *arg, uint16_t flags,
                                 const weft_dep *deps, int ndeps) {
  run_in_place_as<true>(fn, arg, flags, deps, ndeps);
}

// Both: kTraceHere, a traced task's common case runs here too.
template <bool kTraceHere>
__attribute__((always_inline)) inline void
worker::run_in_place_as(weft_task_fn fn, void *arg, uint16_t flags,
                        const weft_dep *deps, int ndeps) {
  const uint32_t depth = inline_depth_;
  task *t;
  if (__builtin_expect(
          depth >= kInlineDepth || (t = inline_tasks_[depth]) == nullptr ||
              task_data_ != nullptr || (!kTraceHere && trace::on()),
          0)) {
    run_inline(fn, arg, flags, deps, ndeps);
    return;
  }
  if (kTraceHere && __builtin_expect(trace::on(), 0))
    run_in_place_at<in_place_trace::on>(depth, t, fn, arg, flags, deps, ndeps);
  else
    run_in_place_at<in_place_trace::off>(depth, t, fn, arg, flags, deps, ndeps);
}

// The in-place run of t, the descriptor for depth (below kInlineDepth), with
// no front-end data (run_inline clears it around this), recorded as kTrace
// says.
template <worker::in_place_trace kTrace>
__attribute__((always_inline)) inline void
worker::run_in_place_at(uint32_t depth, task *t, weft_task_fn fn, void *arg,
                        uint16_t flags, const weft_dep *deps, int ndeps) {
  task *parent = current_;
  // What differs from the last task at this depth; the rest is as
  // new_inline_task (or end_inline) left it.
  t->fn = fn;
  t->arg = arg;
  // Atomic (plain moves on x86): a thief may still read these words of
  // the block through a stale deque slot (ready_deque::steal_if).
  std::atomic_ref<task *>(t->parent).store(parent, std::memory_order_relaxed);
  // A taskgroup open in the parent is the rare case: laid out as the jump,
  // so that the common one falls through (one instruction less a task).
  taskgroup_state *const inner = parent->cur_group;
  std::atomic_ref<taskgroup_state *>(t->group).store(
      __builtin_expect(inner != nullptr, 0) ? inner : parent->group,
      std::memory_order_relaxed);
  t->flags = static_cast<uint16_t>(flags | TASK_INLINE);
  bool traced = false;
  if constexpr (kTrace == in_place_trace::test)
    traced = trace_point::inline_begin(*this, *t, parent, flags, deps, ndeps);
  else if constexpr (kTrace == in_place_trace::on)
    trace_point::inline_begin_on_deps(*this, *t, parent, flags, deps, ndeps);
  inline_depth_ = depth + 1;
  {
    task_frame<true> frame(*this, t);
    try {
      fn(arg);
    } catch (...) {
      record_current_exception(t);
    }
    if (__builtin_expect(task_data_ != nullptr, 0))
      end_task_data();
    // One test for all the body may have left: with no child created (or
    // every one waited for), no other thread writes t->exc any more.
    if (__builtin_expect((t->created | reinterpret_cast<uintptr_t>(t->domain) |
                          reinterpret_cast<uintptr_t>(t->cur_group) |
                          reinterpret_cast<uintptr_t>(
                              t->exc.load(std::memory_order_relaxed))) != 0,
                         0))
      end_inline(*t);
  }
  inline_depth_ = depth;
  if constexpr (kTrace == in_place_trace::test)
    trace_point::inline_end(*this, *t, traced);
  else if constexpr (kTrace == in_place_trace::on)
    trace_point::inline_end(*this, *t, true);
}

} // namespace weft
