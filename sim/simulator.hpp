// The discrete-event replay of a trace's task graph on N modelled cores
// (docs/simulator.md): task work, creation order, dependences and waits
// come from the trace, what the runtime and scheduler cost from a model.
#pragma once

#include "model.hpp"

#include "trace/read/trace_graph.hpp"

#include <cstdint>
#include <functional>

namespace weft::sim {

struct result {
  uint32_t cores = 0;
  uint64_t makespan_ps = 0; // time 0 to the last task's completion
  uint64_t work_ps = 0;     // the tasks' work steps, summed
  uint64_t tasks = 0;       // tasks simulated (idle roots are not)
  uint64_t events = 0;      // discrete events processed
  // Children kept out of a full unit: without dependences, run as ready
  // (bypassed); with dependences, run in place by their stalled creator
  // when nothing else could make room (serialized).
  uint64_t bypassed = 0, serialized = 0;

  // The share of the cores' time spent in task work.
  double utilisation() const;
};

// Leaves out each root task's work before its first other step and after
// its last: a program's serial set-up and result checking, around the part
// made of tasks (the span the papers' traces cover).
void trim_serial_ends(trace::task_graph &g);

// Called with the number of tasks completed so far, every 65536 tasks.
using progress_fn = std::function<void(uint64_t)>;

// Replays g on `cores` cores under m. Policy: one ready queue, first in
// first out; a task whose wait is over, and an undeferred task, enter at
// its front. A waiting or stalled task frees its core. Throws sim::error
// if tasks are left that can never run (a deadlock) or a task needs more
// entries than the unit has.
result simulate(const trace::task_graph &g, const model &m, uint32_t cores,
                const progress_fn &progress = {});

} // namespace weft::sim
