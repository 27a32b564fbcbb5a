// Task graphs of synthetic programs, built directly (no trace file): the
// Myrmics paper's microbenchmarks and their hierarchical variants, for the
// myrmics model's test and bench/myrmics_model.
#pragma once

#include "trace/read/trace_graph.hpp"

#include <cstdint>
#include <vector>

namespace weft::sim {

// A main task that spawns fanout[0] tasks and waits for them; each of those
// spawns fanout[1] tasks and waits, and so on; the tasks of the last level
// work `task_ns` each and have `args` distinct inout arguments (addresses:
// they are independent); the others have one. {512} is Fig. 7b's program,
// {64, 6} a two-level one (the hierarchical benchmarks' shape).
trace::task_graph fork_join_graph(const std::vector<uint32_t> &fanout,
                                  uint64_t task_ns, uint32_t args = 1);

} // namespace weft::sim
