// Reading trace files (trace_format.hpp), the reading side of src/trace: used
// by `weft trace`, `weft sim` and the tests, not by libweft. Errors throw
// trace::error with the file name and the byte offset.
#pragma once

#include "trace/trace_format.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace weft::trace {

// Turns one thread's records as a file holds them (trace_format.hpp) into the
// events the readers return, one record per event: checks each record
// (a known kind, the chunk's thread, dep records right after their owner
// with its time), converts ticks to ns since the start with the header's
// rate (a thread's times never go back: a time read a little early is
// raised to the one before it) and expands the merged kinds.
class thread_decoder {
public:
  thread_decoder(const file_header &h, uint16_t thread)
      : tick0_(h.tick0), ns_per_tick_(h.ns_per_tick),
        last_kind_(last_kind(h.version)), thread_(thread) {}
  // Appends the events r stands for to out. Returns "" or what is wrong
  // with r.
  std::string add(const record &r, std::vector<record> &out);
  // At the end of a chunk: "" or what is missing.
  std::string end_chunk() const;

private:
  uint64_t ns_of(uint64_t ticks) const {
    return ticks > tick0_
               ? static_cast<uint64_t>(double(ticks - tick0_) * ns_per_tick_)
               : 0;
  }
  // A time of this thread's next event: never before the last.
  uint64_t next_ns(uint64_t ticks) {
    uint64_t ns = ns_of(ticks);
    if (ns < last_ns_)
      ns = last_ns_;
    last_ns_ = ns;
    return ns;
  }
  // An overhead segment of task from ticks `from` to `to`.
  void overhead(std::vector<record> &out, overhead_kind k, uint64_t task,
                uint64_t from, uint64_t to);
  // After the last dep record of a task_spawn: its spawn segment.
  void deps_done(std::vector<record> &out);
  // e (its task and thread set) as a task_begin at ticks `begin` and a
  // task_end at ticks `end`.
  void run_span(std::vector<record> &out, record e, uint64_t begin,
                uint64_t end);
  // The task_create and dep records of a short record carrying one
  // dependence of the given mode (task_spawn_dep, task_inline_dep); e is
  // left as the task_create.
  void created_with_dep(std::vector<record> &out, record &e, const record &r,
                        uint8_t mode);

  // The last record's task when it was a task_inline or task_inline_dep
  // with its end inside: what a task_inline_run after it repeats.
  struct timed_inline {
    bool valid = false;
    bool has_dep = false;
    uint8_t flags = 0, mode = 0;
    uint64_t id = 0, parent = 0;
    uint64_t body = 0, end = 0; // ticks
    uint64_t addr = 0;
  };
  // A task_inline_run's tasks (t: the timed task before it).
  std::string inline_run(std::vector<record> &out, const record &r,
                         const timed_inline &t);

  uint64_t tick0_;
  double ns_per_tick_;
  kind last_kind_;
  uint16_t thread_;
  uint64_t last_ns_ = 0;
  uint32_t deps_due_ = 0;
  uint64_t owner_time_ = 0, owner_task_ = 0;
  // A task_spawn's spawn segment, due after its dep records.
  bool spawn_due_ = false;
  uint64_t spawn_task_ = 0, spawn_from_ = 0, spawn_to_ = 0;
  timed_inline timed_;
};

struct trace_data {
  file_header header;
  // Every event of every chunk (thread_decoder), stably sorted by time:
  // each thread's events keep their order, and dep records stay right after
  // the record they belong to.
  std::vector<record> records;
};

// Reads and checks a trace's header (magic, version, record size) from the
// start of f; the name fields come back NUL-terminated. A version other
// than kOldestVersion..kVersion is refused naming it.
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
