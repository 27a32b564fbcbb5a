// Writing and reading trace files (trace_format.hpp). Errors throw
// trace::error with the file name and, when reading, the byte offset.
#pragma once

#include "trace/trace_format.hpp"

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace weft::trace {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A header with magic, version and record size filled in.
file_header make_header(const char *engine, const char *program,
                        uint32_t threads, uint64_t start_unix_ns);

class writer {
public:
  // Creates (truncates) path and writes the header.
  writer(const std::string &path, const file_header &h);
  ~writer();
  writer(const writer &) = delete;
  writer &operator=(const writer &) = delete;

  // Appends one chunk of a thread's records, in their time order; callable
  // from several threads at once. A record and the dep records that follow
  // it must be in the same chunk.
  void write_chunk(uint16_t thread, const record *r, std::size_t n);
  // Flushes and closes; further chunks are an error. Idempotent.
  void close();

private:
  std::string path_;
  std::mutex lock_;
  std::FILE *f_ = nullptr;
};

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
