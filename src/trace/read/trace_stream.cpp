#include "trace/read/trace_stream.hpp"

#include "trace/compact.hpp"

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
  compact_ = header_.version >= kCompactVersion;
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
    if (!compact_ && c.bytes != 0)
      bad(offset - 4, "chunk header's reserved field is not 0");
    if (compact_ && c.records == 0 && c.bytes != 0)
      bad(offset,
          "chunk of 0 records with " + std::to_string(c.bytes) + " bytes");
    uint64_t bytes = compact_ ? c.bytes : uint64_t(c.records) * sizeof(record);
    if (size - offset < bytes)
      bad(offset,
          compact_
              ? "truncated chunk of " + std::to_string(c.bytes) + " bytes"
              : "truncated chunk of " + std::to_string(c.records) + " records");
    auto [it, fresh] = by_thread.emplace(c.thread, cursors_.size());
    if (fresh)
      cursors_.emplace_back(header_, c.thread);
    if (c.records > 0 || bytes > 0)
      cursors_[it->second].chunks.push_back({offset, c.records, c.bytes});
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
  std::size_t n;
  uint64_t pos;
  if (compact_) {
    // A compact chunk is decoded whole (its records are not of one size).
    n = ch.records;
    pos = ch.offset;
    c.payload.resize(ch.bytes);
    if (pread(fd_, c.payload.data(), ch.bytes, static_cast<off_t>(pos)) !=
        static_cast<ssize_t>(ch.bytes))
      bad(pos, std::string("read error: ") + std::strerror(errno));
    std::size_t at = 0;
    if (std::string why =
            compact::decode(c.payload.data(), ch.bytes, ch.records, c.thread,
                            c.raw, &c.at_of, &at);
        !why.empty())
      bad(pos + at, why);
  } else {
    n = std::min<std::size_t>(kBufferRecords, ch.records - c.in_chunk);
    c.raw.resize(n);
    pos = ch.offset + uint64_t(c.in_chunk) * sizeof(record);
    ssize_t want = static_cast<ssize_t>(n * sizeof(record));
    if (pread(fd_, c.raw.data(), static_cast<std::size_t>(want),
              static_cast<off_t>(pos)) != want)
      bad(pos, std::string("read error: ") + std::strerror(errno));
  }
  c.buffer.clear();
  c.offsets.clear();
  for (std::size_t i = 0; i < n; ++i) {
    uint64_t at = compact_ ? pos + c.at_of[i] : pos + i * sizeof(record);
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
