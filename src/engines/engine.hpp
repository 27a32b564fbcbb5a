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
#pragma once

#include "../core/task.hpp"

#include <weft/weft.h>

#include <memory>
#include <string>

namespace weft {

class worker;

enum class submit_result { ready, pending, full };

// Counters an engine adds to weft_stats.
struct engine_stats {
  uint64_t deps_submitted = 0;
  uint64_t edges = 0;
  uint64_t peak_map_entries = 0;
  uint64_t modelled_cycles = 0;
};

class dependency_engine {
public:
  virtual ~dependency_engine() = default;
  virtual const char *name() const = 0;

  // t is a child of parent; both are owned by the calling worker's thread.
  // The deps were validated by the caller (non-null addresses, known modes).
  virtual submit_result submit(worker &w, task *parent, task *t,
                               const weft_dep *deps, int ndeps) = 0;

  // Would a task with these deps, submitted now, be ready? When the core
  // answers yes it may run the task at once in the creating thread without
  // submitting it (undeferred, as libgomp does when too many tasks are
  // queued): it has finished before any later sibling is submitted. Engines
  // that must see every task (the hardware models) keep the default.
  virtual bool ready_now(worker &, task * /*parent*/, const weft_dep *,
                         int /*ndeps*/) {
    return false;
  }

  // Engines with their own ready queue return true and implement fetch.
  virtual bool holds_ready_tasks() const { return false; }
  virtual task *fetch(worker &) { return nullptr; }

  virtual void retire(worker &w, task *t) = 0;

  // taskwait depend: make `waiter` (a TASK_WAITER pseudo task) a successor of
  // the earlier children of parent that deps would order after. Returns
  // true if there is something to wait for (waiter is then made ready
  // through worker::make_ready when the last of them retires).
  virtual bool wait_deps(worker &w, task *parent, task *waiter,
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

// Engine by name ("sw"); nullptr if unknown.
std::unique_ptr<dependency_engine> make_engine(const std::string &name,
                                               int nworkers);
// Names accepted by make_engine, comma-separated (for error messages).
const char *engine_names();

} // namespace weft
