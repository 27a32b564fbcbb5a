// The Myrmics model (`weft sim --model myrmics`, docs/simulator.md): a
// discrete-event replay of a task graph on a tree of modelled schedulers
// over modelled workers, charging the costs the Myrmics paper measured
// (section VI-A: 16.2 k cycles to spawn and 13.3 k cycles to execute an
// empty one-argument task, 450-750 cycles per message).
//
// What it models, per task:
//  * spawn: the creating task's worker blocks while a message goes to its
//    leaf scheduler and up the tree to the parent task's responsible
//    scheduler, which handles the spawn itself (flat, or at the leaves) or
//    delegates it one level down; the handling scheduler serves it for
//    analysis_cycles (spawn_cycles less the round trip of one message each
//    way, plus arg_cycles per argument beyond the first: a trace task's
//    dependences count as its arguments), then acknowledges to the worker;
//  * dispatch: the handling scheduler picks the least-loaded child
//    (scheduler or worker; score_cycles per candidate), level by level down
//    to a worker's queue, one message per hop;
//  * execution: exec_cycles on the worker around the task's work (queued
//    tasks start back to back: the paper's double buffering);
//  * completion: a message up to the handling scheduler, which serves it for
//    done_cycles and resumes a parent waiting for its children.
// Each scheduler is one server: requests wait for it in arrival order.
// Responsible scheduler of a task at task depth d (the root is 0): the
// scheduler at tree level min(d - 1, levels - 1) below its parent's; at
// each level children are placed round robin in creation order (regions
// of equal size placed at the lowest-load child, as Myrmics' ralloc does).
// Locality (the L of T = pL + (100-p)B) is not modelled: a trace has no
// record of the bytes tasks produced.
#pragma once

#include "model.hpp"
#include "simulator.hpp"

#include "trace/read/trace_graph.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::sim {

struct myrmics_config {
  // Fan-out per level below the top: {} is one scheduler (flat), {4} is one
  // top and four leaves, {2, 4} three levels with eight leaves.
  std::vector<uint32_t> fanout;
  uint64_t spawn_cycles = 16200;
  uint64_t exec_cycles = 13300;
  uint64_t msg_min = 450, msg_max = 750; // per message, uniform, seeded
  uint64_t arg_cycles = 0;    // analysis per argument beyond the first (the
                              // paper gives no figure)
  uint64_t done_cycles = 600; // a completion at its scheduler
  uint64_t score_cycles = 0;  // per candidate in a decision
  double mhz = 1000;          // trace ns -> cycles
  uint64_t seed = 1;

  // Reads the parameters "schedulers" (flat | 1xA | 1xAxB...), spawn_cycles,
  // arg_cycles, exec_cycles, msg_min, msg_max, done_cycles, score_cycles, mhz,
  // seed; errors name the value.
  static myrmics_config from(params &p);
  // Parses "flat", "1", "1x4", "1x2x4"; throws sim::error naming s.
  static std::vector<uint32_t> parse_schedulers(const std::string &s);
  uint32_t schedulers() const; // all of them
  uint32_t leaves() const;
};

struct myrmics_result {
  result base;
  uint64_t makespan_cycles = 0;
  uint64_t messages = 0;
  double scheduler_busy = 0; // the busiest scheduler's busy share
};

// Replays g on `workers` workers (split as evenly as possible among the
// leaves; at least one per leaf). Steps other than work, create, taskwait
// and taskwait_on (waits for all its children) throw sim::error naming the
// step and task.
myrmics_result simulate_myrmics(const trace::task_graph &g,
                                const myrmics_config &c, uint32_t workers);

} // namespace weft::sim
