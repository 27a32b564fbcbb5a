// The task graph of a trace (trace_file.hpp): every task with its parent,
// times, worker, dependences, its timeline as a sequence of steps, and the
// dependence edges between siblings. Used by `weft sim` and `weft trace`.
#pragma once

#include "trace/read/sibling_dependences.hpp"
#include "trace/read/trace_reader.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::trace {

// An index into task_graph::tasks (or regions); kNone: no such task.
inline constexpr uint32_t kNone = UINT32_MAX;

// What a task does next in its timeline. The task ends after its last step.
enum class step_kind : uint8_t {
  work,        // value: ns of the task's own work (recorded overhead and
               // nested tasks excluded)
  create,      // value: the child's index
  taskwait,    // wait until every child created so far has finished
  taskwait_on, // waits[value .. value + count): the children it waits for
  taskgroup,   // wait until every descendant has finished (see below)
  barrier,     // value: the region; a team barrier of an implicit task
  join,        // value: the region: the end of a parallel region, waits for
               // the team's implicit tasks and all their descendants
};

struct step {
  step_kind type;
  uint32_t count;
  uint64_t value;
};

struct task_node {
  uint64_t id;
  uint32_t parent = kNone; // index; kNone for a root task (parent id 0)
  uint32_t region = kNone; // for an implicit task: the region it is a member of
  uint16_t creator_thread = 0;
  uint16_t worker = 0; // the thread that ran its body
  uint8_t flags = 0;   // task_flags
  uint64_t create_ns = 0, begin_ns = 0, end_ns = 0;
  uint32_t first_dep = 0, ndeps = 0;   // graph.deps
  uint32_t first_step = 0, nsteps = 0; // graph.steps
  uint32_t first_succ = 0, nsuccs = 0; // graph.succs: tasks that depend on it
  uint32_t npreds = 0;                 // tasks it depends on (edges into it)
};

// A parallel region: region_begin .. region_end of the encountering task.
struct region_info {
  uint32_t encountering;
  uint32_t size; // implicit tasks created in it (the team)
};

// A phase the program marked (weft_trace_phase_begin / _end) in the
// timeline of one task: its steps [begin_step, end_step) (indices from the
// task's first_step).
struct phase_info {
  std::string name;
  uint32_t task;
  uint32_t begin_step, end_step;
  uint64_t begin_ns, end_ns;
};

struct task_graph {
  std::vector<task_node> tasks; // in the order of their task_create records
  std::vector<dependence> deps;
  std::vector<step> steps;
  std::vector<uint32_t> succs;
  std::vector<uint32_t> waits;
  std::vector<region_info> regions;
  std::vector<phase_info> phases; // in the order they began

  // The index of a task id, or kNone (a linear search).
  uint32_t index_of(uint64_t id) const;
  // A root task (parent 0) that created nothing and waited for nothing: a
  // worker thread's placeholder, whose body is the worker's idle loop.
  bool idle_root(uint32_t task) const;
};

// Builds the graph of a trace (records in time order, as trace::read gives
// them). Dependences are OpenMP's, between siblings: in after out/inout
// (the last writer group); out/inout after the readers since the last writer
// group, or that group; consecutive inoutset tasks form a group that depends
// on what was before it; mutexinoutset is treated as inout (mutual exclusion
// becomes an order, the one of creation). Only direct edges are kept, each
// once. taskwait_on waits for the children a sibling with its dependences
// would depend on. A taskgroup's start is not recorded: its end waits for
// every descendant of the task. Throws trace::error naming the task id on
// an inconsistent trace (a begin without a create, an end without a begin,
// a task that never ended...).
task_graph build_graph(const trace_data &t);

// The graph of phase `name` alone: its task, as a root, with only its steps
// inside the phase, and every task created in the phase with all its
// descendants; tasks created before or after the phase are left out, and
// the dependences of phase tasks on earlier tasks count as satisfied at the
// phase's start (their edges are dropped; a wait waits only for phase
// tasks). Throws trace::error naming the phase and the phases the trace
// has when it has no phase of that name.
task_graph select_phase(const task_graph &g, const std::string &name);

const char *name(step_kind k);

} // namespace weft::trace
