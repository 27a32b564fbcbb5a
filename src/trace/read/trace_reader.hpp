// Reading trace files (trace_format.hpp), the reading side of src/trace: used
// by `weft trace`, `weft sim` and the tests, not by libweft. Errors throw
// trace::error with the file name and the byte offset.
#pragma once

#include "trace/trace_format.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace weft::trace {

struct trace_data {
  file_header header;
  // Every record of every chunk, stably sorted by time: each thread's
  // records keep their order, and dep records stay right after the record
  // they belong to.
  std::vector<record> records;
};

// Reads and checks a trace's header (magic, version, record size) from the
// start of f; the name fields come back NUL-terminated.
file_header read_header(std::FILE *f, const std::string &path);

// Reads and checks a whole trace: magic, version, record size, chunk
// headers, record kinds, and that every count is followed by its deps.
trace_data read(const std::string &path);

// The name of a record kind, dependence mode, wait, overhead or counter
// ("task_create", "inout"...), for tools and messages.
const char *name(kind k);
const char *name(dep_mode m);
const char *name(wait_kind w);
const char *name(overhead_kind o);
const char *name(counter_id c);

} // namespace weft::trace
