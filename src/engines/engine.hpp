// The dependency-engine contract (DESIGN.md): the three FIFO operations of
// Nexus++ and Picos. An engine owns readiness; the core owns tasks, threads
// and the ready queues.
//
//   submit(t, deps)  offer a task. Non-blocking: ready (may run now), pending
//                    (the engine will report it ready later through
//                    worker::make_ready) or full (not taken: the caller makes
//                    progress and offers it again — back-pressure).
//   fetch(worker)    a task the engine holds ready for this worker, if the
//                    engine keeps its own ready queue (hardware models do; the
//                    sw engine hands ready tasks to the core at once).
//   retire(t)        t finished; successors that become ready are handed to
//                    the core through worker::make_ready.
//
// What the core offers an engine (core/engine_host.hpp, the only part of the
// core an engine includes besides the task and the worker):
//   worker::make_ready(t)     from the calling worker's own thread, inside
//                             submit / retire / wait_deps: t is ready (t is
//                             then of the caller's team: a sibling of the
//                             task submitted or retired).
//   engine_host::ready(rt,t)  from any thread (a manager thread too): t is
//                             ready; the core queues it in t's own team (or
//                             releases the taskwait of a TASK_WAITER) and
//                             wakes a member.
//   engine_host::wake(rt,id)  wake worker `id` if it sleeps.
//   worker::id()              the core number, 0 <= id <= kMaxWorkers;
//                             workers appear as OpenMP teams grow, so keep
//                             per-core state in a per_worker_table.
// A task returned by fetch() may belong to any team, or be a TASK_WAITER:
// the core runs it, routes it to its team, or releases the waiter.
//
// retire() and task_free() are also called for tasks the engine never saw
// (run undeferred or serialized by the core: TASK_NO_SUCCESSORS set and
// engine_data still 0): an engine ignores those.
//
// Tasks and their engine fields: an engine may use task::engine_data (32
// bits: a table index), task::domain (opaque: a parent's state over its
// children; the core only tests it for null to call children_done and
// task_end) and task::pending. Dependences are between siblings only: the
// same address under two parents names two unrelated dependences.
#pragma once

#include "core/task.hpp"

#include <weft/weft.h>

#include <memory>
#include <string>
#include <vector>

namespace weft {

class worker;
class runtime;

// submit's answer. `serialize`: the engine cannot hold this task (more
// dependences than it takes, or full with no way to make room); the core runs
// it in the creating thread once every earlier child of the parent has
// finished, outside the engine, which orders it correctly against every
// sibling.
enum class submit_result { ready, pending, full, serialize };

// wait_deps' answer: nothing to wait for, wait for the waiter to be made
// ready, or (the engine cannot express this wait) wait for every child.
enum class wait_result { none, waiter, all };

// One named counter (the name has static storage duration).
struct engine_counter {
  const char *name;
  uint64_t value;
};

// Counters an engine adds to weft_stats, plus its own named counters
// (operations, modelled cycles and time, peak occupancies, stalls...).
struct engine_stats {
  uint64_t deps_submitted = 0;
  uint64_t edges = 0;
  uint64_t peak_map_entries = 0;
  uint64_t modelled_cycles = 0;
  std::vector<engine_counter> counters;
  void add(const char *name, uint64_t value) {
    counters.push_back({name, value});
  }
};

class dependency_engine {
public:
  virtual ~dependency_engine() = default;
  virtual const char *name() const = 0;
  // Whether the OpenMP front end may enforce the tied-task scheduling
  // constraint under this engine (false where it is known to hang).
  virtual bool supports_tied_constraint() const { return true; }

  // After the runtime is built / before its workers are destroyed: engines
  // with threads of their own (the Nexus++ manager thread) start and stop
  // them here.
  virtual void start(runtime &) {}
  virtual void stop() {}

  // t is a child of parent; both are owned by the calling worker's thread.
  // The deps were validated by the caller (non-null addresses, known modes).
  virtual submit_result submit(worker &w, task *parent, task *t,
                               const weft_dep *deps, int ndeps) = 0;

  // Would a task with these deps, submitted now, be ready? When the core
  // answers yes it may run the task at once in the creating thread without
  // submitting it (undeferred, as libgomp does when too many tasks are
  // queued): it has finished before any later sibling is submitted. Engines
  // that must see every task (the hardware models) keep the default. The
  // answer for ndeps == 0 must not depend on the parent or the moment: the
  // core asks it once per worker (runtime::run_now_instead).
  virtual bool ready_now(worker &, task * /*parent*/, const weft_dep *,
                         int /*ndeps*/) {
    return false;
  }

  // Engines with their own ready queue return true and implement fetch.
  virtual bool holds_ready_tasks() const { return false; }
  virtual task *fetch(worker &) { return nullptr; }
  // Before a worker sleeps: may fetch(w) return a task now? (A hint read
  // after the worker announced it sleeps; an engine that queues a task for a
  // worker then wakes it: engine_host::ready or engine_host::wake.)
  virtual bool has_ready(worker &) { return false; }
  // Nonzero when this worker must look at fetch() again within that many
  // microseconds even if nobody wakes it (Picos: a Ready Task Request is
  // outstanding and a task may land in the core's queue at any time).
  virtual int poll_interval_us(worker &) { return 0; }

  virtual void retire(worker &w, task *t) = 0;

  // taskwait depend: make `waiter` (a TASK_WAITER pseudo task) a successor of
  // the earlier children of parent that deps would order after. Returns
  // `waiter` if there is something to wait for (waiter is then made ready
  // through worker::make_ready or engine_host::ready when the last of them
  // retires).
  virtual wait_result wait_deps(worker &w, task *parent, task *waiter,
                                const weft_dep *deps, int ndeps) = 0;

  // Every child of parent has finished (after a full taskwait).
  virtual void children_done(worker &w, task *parent) = 0;
  // parent's function returned: no more children will be submitted.
  virtual void task_end(worker &w, task *parent) = 0;

  // Per-worker counters are summed by the caller.
  virtual void add_stats(engine_stats &out) const = 0;

  // Called before a task is returned to the pool (release engine memory).
  virtual void task_free(worker &w, task *t) = 0;
};

// Engine by name ("sw", "nexus", "picos"); nullptr if unknown. The engines'
// own parameters come from their WEFT_<ENGINE>_* variables.
std::unique_ptr<dependency_engine> make_engine(const std::string &name,
                                               int nworkers);
// Names accepted by make_engine, comma-separated (for error messages).
const char *engine_names();

} // namespace weft
