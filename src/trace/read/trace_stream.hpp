// Reads a trace's events one at a time in trace::read's merged order
// (time, then position in the file) while holding only one buffer of
// records per thread, so that a trace larger than memory can be converted.
// Checks what trace::read checks; errors throw trace::error naming the file
// and the byte offset.
#pragma once

#include "trace/read/trace_reader.hpp"

#include <cstdint>
#include <queue>
#include <string>
#include <vector>

namespace weft::trace {

class record_stream {
public:
  // Opens path, checks the header and every chunk header (one pass over the
  // chunk headers, records skipped).
  explicit record_stream(const std::string &path);
  ~record_stream();
  record_stream(const record_stream &) = delete;
  record_stream &operator=(const record_stream &) = delete;

  const file_header &header() const { return header_; }
  // Records in the file, every kind counted (a merged record stands for
  // several events).
  uint64_t total() const { return total_; }
  // Records whose events were all handed out so far.
  uint64_t done() const { return done_; }
  // The next event; false after the last one. A task_create or wait_begin
  // is followed by its `count` dep records.
  bool next(record &r);

private:
  struct chunk {
    uint64_t offset; // of its first record (its payload, compact)
    uint32_t records;
    uint32_t bytes; // a compact chunk's payload (read and decoded whole)
  };
  struct cursor {
    cursor(const file_header &h, uint16_t th) : thread(th), decoder(h, th) {}
    uint16_t thread;
    thread_decoder decoder;
    std::vector<chunk> chunks;
    std::size_t current = 0;       // index into chunks
    uint32_t in_chunk = 0;         // next record's index in the current chunk
    std::vector<record> raw;       // as read from the file
    std::vector<uint8_t> payload;  // a compact chunk's bytes
    std::vector<uint32_t> at_of;   // its records' offsets in them
    std::vector<record> buffer;    // their events
    std::vector<uint64_t> offsets; // each event's record's file offset
    std::size_t at = 0;            // next event in buffer
  };
  struct head {
    uint64_t time, offset;
    std::size_t cursor;
    bool operator>(const head &o) const {
      return time != o.time ? time > o.time : offset > o.offset;
    }
  };

  bool refill(cursor &c);
  void push(std::size_t i);
  [[noreturn]] void bad(uint64_t offset, const std::string &what) const;

  std::string path_;
  int fd_ = -1;
  bool compact_ = false;
  file_header header_;
  uint64_t total_ = 0, done_ = 0;
  std::vector<cursor> cursors_;
  std::priority_queue<head, std::vector<head>, std::greater<head>> heap_;
};

} // namespace weft::trace
