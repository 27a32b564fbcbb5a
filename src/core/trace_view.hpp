// What the trace recorder (src/trace/record) reads of the core: the counter
// samples and the implicit tasks still open at exit. The recorder includes
// this and never the runtime's own headers.
#pragma once

#include <cstdint>
#include <vector>

namespace weft {

class worker;

namespace trace {
struct thread_log;
}

namespace trace_view {

// Tasks queued in the deques of w's current team: a hint (other threads
// push and take while it sums).
uint64_t ready_hint(worker &w);

// Tasks spawned and not yet finished over every worker, from relaxed
// counters (never negative: 0 when the sum runs behind).
uint64_t in_flight(worker &w);

// An implicit task still running when the program exits.
struct open_root {
  trace::thread_log *log;
  uint64_t trace_id;
};

// Once every team member has left its region: the recording workers still
// inside their implicit task (the initial thread's, and those of the
// program's own threads). Empty when no runtime exists.
std::vector<open_root> open_roots_at_exit();

} // namespace trace_view
} // namespace weft
