// `weft trace export --perfetto`: a weft trace as Perfetto's protobuf trace
// (TracePacket / TrackEvent, tools/perfetto_trace.proto), written as the
// records stream in, with memory bounded by the tasks alive at a time (and
// the ended children of running tasks), not by the trace's length.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace weft::cli {

struct perfetto_counts {
  uint64_t packets = 0, tasks = 0, flows = 0, counters = 0;
};

// Converts the trace at `in` into `out` ("-": stdout). `progress` is called
// now and then with (records done, records in the file). Throws
// trace::error naming the file (and the task) on a bad or inconsistent
// trace, std::runtime_error when `out` cannot be written.
perfetto_counts
export_perfetto(const std::string &in, const std::string &out,
                const std::function<void(uint64_t, uint64_t)> &progress);

} // namespace weft::cli
