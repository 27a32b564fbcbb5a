#include "trace/read/trace_stream.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace weft::trace {

namespace {

constexpr std::size_t kBufferRecords = 4096;

} // namespace

void record_stream::bad(uint64_t offset, const std::string &what) const {
  throw error("trace: " + path_ + " at byte " + std::to_string(offset) + ": " +
              what);
}

record_stream::record_stream(const std::string &path) : path_(path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    throw error("trace: cannot open " + path + ": " + std::strerror(errno));
  try {
    header_ = read_header(f, path);
  } catch (...) {
    std::fclose(f);
    throw;
  }
  std::fclose(f);
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd_ < 0 || fstat(fd_, &st) != 0)
    throw error("trace: cannot open " + path + ": " + std::strerror(errno));
  uint64_t size = static_cast<uint64_t>(st.st_size);
  uint64_t offset = sizeof(file_header);
  std::map<uint16_t, std::size_t> by_thread;
  while (offset < size) {
    chunk_header c;
    if (size - offset < sizeof c ||
        pread(fd_, &c, sizeof c, static_cast<off_t>(offset)) !=
            static_cast<ssize_t>(sizeof c) ||
        c.magic != kChunkMagic)
      bad(offset, size - offset < sizeof c
                      ? "trailing bytes after the last chunk"
                      : "bad chunk header");
    offset += sizeof c;
    uint64_t bytes = uint64_t(c.records) * sizeof(record);
    if (size - offset < bytes)
      bad(offset,
          "truncated chunk of " + std::to_string(c.records) + " records");
    auto [it, fresh] = by_thread.emplace(c.thread, cursors_.size());
    if (fresh)
      cursors_.emplace_back(header_, c.thread);
    if (c.records > 0)
      cursors_[it->second].chunks.push_back({offset, c.records});
    total_ += c.records;
    offset += bytes;
  }
  for (std::size_t i = 0; i < cursors_.size(); ++i)
    if (refill(cursors_[i]))
      push(i);
}

record_stream::~record_stream() {
  if (fd_ >= 0)
    ::close(fd_);
}

bool record_stream::refill(cursor &c) {
  while (c.current < c.chunks.size() &&
         c.in_chunk == c.chunks[c.current].records) {
    ++c.current;
    c.in_chunk = 0;
  }
  if (c.current == c.chunks.size())
    return false;
  const chunk &ch = c.chunks[c.current];
  std::size_t n =
      std::min<std::size_t>(kBufferRecords, ch.records - c.in_chunk);
  c.raw.resize(n);
  uint64_t pos = ch.offset + uint64_t(c.in_chunk) * sizeof(record);
  ssize_t want = static_cast<ssize_t>(n * sizeof(record));
  if (pread(fd_, c.raw.data(), static_cast<std::size_t>(want),
            static_cast<off_t>(pos)) != want)
    bad(pos, std::string("read error: ") + std::strerror(errno));
  c.buffer.clear();
  c.offsets.clear();
  for (std::size_t i = 0; i < n; ++i) {
    uint64_t at = pos + i * sizeof(record);
    if (std::string why = c.decoder.add(c.raw[i], c.buffer); !why.empty())
      bad(at, why);
    c.offsets.resize(c.buffer.size(), at);
  }
  c.in_chunk += static_cast<uint32_t>(n);
  if (c.in_chunk == ch.records)
    if (std::string why = c.decoder.end_chunk(); !why.empty())
      bad(ch.offset, why);
  c.at = 0;
  return true;
}

void record_stream::push(std::size_t i) {
  const cursor &c = cursors_[i];
  heap_.push({c.buffer[c.at].time, c.offsets[c.at], i});
}

bool record_stream::next(record &r) {
  if (heap_.empty())
    return false;
  head h = heap_.top();
  heap_.pop();
  cursor &c = cursors_[h.cursor];
  r = c.buffer[c.at];
  // A record is done with its last event.
  if (c.at + 1 == c.buffer.size() || c.offsets[c.at + 1] != c.offsets[c.at])
    ++done_;
  if (++c.at < c.buffer.size() || refill(c))
    push(h.cursor);
  return true;
}

} // namespace weft::trace
