#include "trace/record/trace_writer.hpp"

#include <cstring>

namespace weft::trace {

file_header make_header(const char *engine, const char *program,
                        uint32_t threads, uint64_t start_unix_ns,
                        uint64_t tick0, double ns_per_tick) {
  file_header h{};
  std::memcpy(h.magic, kMagic, sizeof h.magic);
  h.version = kVersion;
  h.record_size = sizeof(record);
  h.start_unix_ns = start_unix_ns;
  h.threads = threads;
  h.tick0 = tick0;
  h.ns_per_tick = ns_per_tick;
  std::strncpy(h.engine, engine ? engine : "", sizeof h.engine - 1);
  std::strncpy(h.program, program ? program : "", sizeof h.program - 1);
  return h;
}

writer::writer(const std::string &path, const file_header &h) : path_(path) {
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
  std::lock_guard<std::mutex> lk(lock_);
  if (!f_)
    throw error("trace: chunk written to " + path_ + " after close");
  if (std::fwrite(&c, sizeof c, 1, f_) != 1 ||
      std::fwrite(r, sizeof *r, n, f_) != n)
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
