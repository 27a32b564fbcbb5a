// The waits of a task: taskwait (every child), taskwait with dependences
// (the children it names), taskgroups, and the exceptions they hand back.
#include "core/engine_host.hpp"
#include "core/runtime.hpp"
#include "core/trace_points.hpp"

#include "base/error.hpp"

#include <cstdint>

namespace weft {

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

int runtime::taskwait(worker &w) {
  trace_point::wait_token k = trace_point::wait_begin(
      w, trace::wait_kind::taskwait, w.current(), nullptr, 0);
  int rc = wait_all_children(w);
  trace_point::wait_end(w, k);
  return rc;
}

int runtime::wait_all_children(worker &w) {
  task *cur = w.current();
  if (cur->created != 0) {
    wait_children(w, cur, cur->created);
    // No child is left to touch the counter: start counting afresh.
    cur->children.store(kChildBias, std::memory_order_relaxed);
    cur->created = 0;
    // Nothing left to throttle: the next child is judged afresh (not run
    // in place on a verdict about the children just waited for).
    if (w.throttled_ == cur)
      w.throttled_ = nullptr;
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
  trace_point::wait_token k = trace_point::wait_begin(
      w, trace::wait_kind::taskwait_on, w.current(), deps, ndeps);
  int rc = wait_children_on(w, deps, ndeps);
  trace_point::wait_end(w, k);
  return rc;
}

int runtime::wait_children_on(worker &w, const weft_dep *deps, int ndeps) {
  task *cur = w.current();
  if (cur->created == 0)
    return WEFT_OK;
  // The engine orders the waiter after the children it has seen.
  drain_own_backlog(w);
  if (wait_on(w, cur, deps, ndeps, ndeps == 1))
    return WEFT_OK;
  // The engine cannot hold a waiter with all of these dependences now (full,
  // its room perhaps held by a child that only our later code completes: a
  // detached task's event) or ever (more than it takes). Waiting for each
  // in turn is waiting for all: no child is created meanwhile.
  for (int i = 0; i < ndeps; ++i)
    if (!wait_on(w, cur, deps + i, 1, true))
      return wait_all_children(w); // every child has finished
  return WEFT_OK;
}

bool runtime::wait_on(worker &w, task *cur, const weft_dep *deps, int ndeps,
                      bool retry) {
  alignas(64) task waiter{};
  waiter.flags = TASK_WAITER;
  waiter.arg = reinterpret_cast<void *>(static_cast<intptr_t>(w.id()));
  waiter.owner = static_cast<uint16_t>(w.id());
  waiter.refs.store(1, std::memory_order_relaxed);
  wait_result r = engine_->wait_deps(w, cur, &waiter, deps, ndeps);
  // Refused: offer it again while children finish; once every child has
  // finished there is nothing left to wait for.
  for (backoff idle({kFullBackoff.spins, backoff_policy::kForever});
       retry && r == wait_result::all;
       r = engine_->wait_deps(w, cur, &waiter, deps, ndeps)) {
    if (unfinished_children(w, cur) == 0)
      return false;
    if (w.help_once())
      idle.reset();
    else
      idle.pause();
  }
  if (r == wait_result::all)
    return false;
  if (r == wait_result::waiter) {
    wait_scope ws(w.wait_state(), wait_kind::taskwait_on, cur,
                  ndeps == 1 ? deps[0].addr : nullptr);
    w.wait_until([&waiter] {
      return waiter.children.load(std::memory_order_acquire) != 0;
    });
  }
  return true;
}

int runtime::taskgroup_begin(worker &w) {
  task *cur = w.current();
  auto *g = new taskgroup_state;
  g->outer = cur->cur_group;
  g->opener = cur;
  g->up = cur->cur_group ? cur->cur_group : cur->group;
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
  trace_point::wait_token k =
      trace_point::wait_begin(w, trace::wait_kind::taskgroup, cur, nullptr, 0);
  if (!done()) {
    wait_scope ws(w.wait_state(), wait_kind::taskgroup, cur);
    g->count.fetch_or(kChildWaiting | (uint64_t(w.id()) << kChildWaiterShift),
                      std::memory_order_seq_cst);
    w.wait_until(done);
  }
  trace_point::wait_end(w, k);
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

void runtime::release_waiter(task *t) {
  // The waiter lives on the waiting thread's stack: read what we need first,
  // the store below lets it return.
  int wid = static_cast<int>(reinterpret_cast<intptr_t>(t->arg));
  t->children.store(1, std::memory_order_seq_cst);
  wake(wid);
}

void runtime::take_exception_into_tls(std::exception_ptr *e) {
  set_pending_exception(*e);
  delete e;
}
} // namespace weft
