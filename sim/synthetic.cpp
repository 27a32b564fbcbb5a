#include "synthetic.hpp"

namespace weft::sim {

namespace {

uint32_t add_task(trace::task_graph &g, uint32_t parent, uint32_t args) {
  trace::task_node n;
  n.id = g.tasks.size() + 1;
  n.parent = parent;
  n.flags = parent == trace::kNone ? trace::flag_implicit : 0;
  n.first_dep = uint32_t(g.deps.size());
  n.ndeps = args;
  for (uint32_t i = 0; i < args; ++i)
    g.deps.push_back(
        {0x1000 + 64 * uint64_t(g.deps.size()), trace::dep_mode::inout});
  g.tasks.push_back(n);
  return uint32_t(g.tasks.size() - 1);
}

void add_step(trace::task_graph &g, uint32_t task, trace::step_kind k,
              uint64_t value) {
  trace::task_node &n = g.tasks[task];
  if (n.nsteps == 0)
    n.first_step = uint32_t(g.steps.size());
  g.steps.push_back({k, 0, value});
  ++n.nsteps;
}

// Task t at `level` of the fan-outs: its children, then its steps (a task's
// steps are contiguous), then its children's subtrees.
void build(trace::task_graph &g, uint32_t t, std::size_t level,
           const std::vector<uint32_t> &fanout, uint64_t task_ns,
           uint32_t args) {
  if (level == fanout.size()) {
    add_step(g, t, trace::step_kind::work, task_ns);
    return;
  }
  bool last = level + 1 == fanout.size();
  std::vector<uint32_t> kids;
  for (uint32_t i = 0; i < fanout[level]; ++i)
    kids.push_back(add_task(g, t, last ? args : 1));
  for (uint32_t k : kids)
    add_step(g, t, trace::step_kind::create, k);
  add_step(g, t, trace::step_kind::taskwait, 0);
  for (uint32_t k : kids)
    build(g, k, level + 1, fanout, task_ns, args);
}

} // namespace

trace::task_graph fork_join_graph(const std::vector<uint32_t> &fanout,
                                  uint64_t task_ns, uint32_t args) {
  trace::task_graph g;
  build(g, add_task(g, trace::kNone, 0), 0, fanout, task_ns, args);
  return g;
}

} // namespace weft::sim
