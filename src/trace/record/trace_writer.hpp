// Writing trace files (trace_format.hpp), the recording side of src/trace:
// in libweft for the recorder, and used by tests that build traces. Errors
// throw trace::error naming the file.
#pragma once

#include "trace/trace_format.hpp"

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace weft::trace {

// A header with magic, version and record size filled in. Times in the
// records are ticks: ns = (ticks - tick0) * ns_per_tick; the default writes
// them as ns. An older version (kOldestVersion..8: fixed-size records, for
// tests of the readers) may be asked for.
file_header make_header(const char *engine, const char *program,
                        uint32_t threads, uint64_t start_unix_ns,
                        uint64_t tick0 = 0, double ns_per_tick = 1.0,
                        uint32_t version = kVersion);

class writer {
public:
  // Creates (truncates) path and writes the header.
  writer(const std::string &path, const file_header &h);
  ~writer();
  writer(const writer &) = delete;
  writer &operator=(const writer &) = delete;

  // Appends one chunk of a thread's records, in their time order; callable
  // from several threads at once. A record and the dep records that follow
  // it must be in the same chunk. In version 9 the chunk is encoded
  // (compact.hpp) by the calling thread, under the file's lock.
  void write_chunk(uint16_t thread, const record *r, std::size_t n);
  // Appends one chunk of n records already encoded (compact.hpp, from a
  // fresh compact::state) in `bytes` bytes at data; version 9 only.
  void write_encoded(uint16_t thread, std::size_t n, const uint8_t *data,
                     std::size_t bytes);
  // Flushes and closes; further chunks are an error. Idempotent.
  void close();

private:
  std::string path_;
  bool compact_;
  std::vector<uint8_t> scratch_; // a chunk's compact encoding
  std::mutex lock_;
  std::FILE *f_ = nullptr;
};

} // namespace weft::trace
