#include "trace/record/trace_writer.hpp"

#include "trace/compact.hpp"

#include <cstring>
#include <vector>

namespace weft::trace {

file_header make_header(const char *engine, const char *program,
                        uint32_t threads, uint64_t start_unix_ns,
                        uint64_t tick0, double ns_per_tick, uint32_t version) {
  if (version < kOldestVersion || version > kVersion)
    throw error("trace: make_header: version " + std::to_string(version) +
                ", this weft writes versions " +
                std::to_string(kOldestVersion) + " to " +
                std::to_string(kVersion));
  file_header h{};
  std::memcpy(h.magic, kMagic, sizeof h.magic);
  h.version = version;
  h.record_size = sizeof(record);
  h.start_unix_ns = start_unix_ns;
  h.threads = threads;
  h.tick0 = tick0;
  h.ns_per_tick = ns_per_tick;
  std::strncpy(h.engine, engine ? engine : "", sizeof h.engine - 1);
  std::strncpy(h.program, program ? program : "", sizeof h.program - 1);
  return h;
}

writer::writer(const std::string &path, const file_header &h)
    : path_(path), compact_(h.version >= kCompactVersion) {
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_)
    throw error(sys_error("cannot create", path));
  if (std::fwrite(&h, sizeof h, 1, f_) != 1)
    throw error(sys_error("cannot write", path));
}

writer::~writer() {
  try {
    close();
  } catch (const error &) {
    // Destructors do not throw; close() explicitly to see the error.
  }
}

void writer::write_chunk(uint16_t thread, const record *r, std::size_t n) {
  if (n == 0)
    return;
  chunk_header c{kChunkMagic, thread, 0, static_cast<uint32_t>(n), 0};
  const void *payload = r;
  std::size_t bytes = n * sizeof *r;
  // Encoded under the lock, into the writer's scratch space (a thread's
  // own would be gone when the last buffers are written at exit).
  std::lock_guard<std::mutex> lk(lock_);
  if (!f_)
    throw error("trace: chunk written to " + path_ + " after close");
  if (compact_) {
    if (scratch_.size() < n * compact::kMaxRecordBytes + compact::kSlack)
      scratch_.resize(n * compact::kMaxRecordBytes + compact::kSlack);
    compact::state s;
    uint8_t *p = scratch_.data();
    for (std::size_t i = 0; i < n; ++i)
      p = compact::encode(s, r[i], p);
    bytes = static_cast<std::size_t>(p - scratch_.data());
    if (bytes > UINT32_MAX)
      throw error("trace: a chunk of " + std::to_string(n) +
                  " records is over 4 GiB compact: " + path_);
    c.bytes = static_cast<uint32_t>(bytes);
    payload = scratch_.data();
  }
  if (std::fwrite(&c, sizeof c, 1, f_) != 1 ||
      std::fwrite(payload, 1, bytes, f_) != bytes)
    throw error(sys_error("cannot write", path_));
}

void writer::write_encoded(uint16_t thread, std::size_t n, const uint8_t *data,
                           std::size_t bytes) {
  if (n == 0)
    return;
  if (!compact_)
    throw error("trace: write_encoded to " + path_ +
                ", a file of fixed-size records");
  if (n > UINT32_MAX || bytes > UINT32_MAX)
    throw error("trace: a chunk of " + std::to_string(n) + " records in " +
                std::to_string(bytes) + " bytes is too large: " + path_);
  chunk_header c{kChunkMagic, thread, 0, static_cast<uint32_t>(n),
                 static_cast<uint32_t>(bytes)};
  std::lock_guard<std::mutex> lk(lock_);
  if (!f_)
    throw error("trace: chunk written to " + path_ + " after close");
  if (std::fwrite(&c, sizeof c, 1, f_) != 1 ||
      std::fwrite(data, 1, bytes, f_) != bytes)
    throw error(sys_error("cannot write", path_));
}

void writer::close() {
  std::lock_guard<std::mutex> lk(lock_);
  if (!f_)
    return;
  std::FILE *f = f_;
  f_ = nullptr;
  if (std::fclose(f) != 0)
    throw error(sys_error("cannot close", path_));
}

} // namespace weft::trace
