#include "trace/read/trace_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace weft::trace {

namespace {

struct file_closer {
  void operator()(std::FILE *f) const { std::fclose(f); }
};

[[noreturn]] void bad(const std::string &path, long offset,
                      const std::string &what) {
  throw error("trace: " + path + " at byte " + std::to_string(offset) + ": " +
              what);
}

bool known(kind k) { return k >= kind::task_create && k <= kind::rtask_arg; }

} // namespace

file_header read_header(std::FILE *f, const std::string &path) {
  file_header h;
  if (std::fread(&h, sizeof h, 1, f) != 1)
    bad(path, 0, "shorter than a trace header (not a weft trace?)");
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    bad(path, 0, "not a weft trace (bad magic)");
  if (h.version != kVersion)
    bad(path, 8,
        "trace format version " + std::to_string(h.version) +
            ", this weft reads version " + std::to_string(kVersion));
  if (h.record_size != sizeof(record))
    bad(path, 12,
        "record size " + std::to_string(h.record_size) + ", expected " +
            std::to_string(sizeof(record)));
  h.engine[sizeof h.engine - 1] = '\0';
  h.program[sizeof h.program - 1] = '\0';
  return h;
}

trace_data read(const std::string &path) {
  std::unique_ptr<std::FILE, file_closer> f(std::fopen(path.c_str(), "rb"));
  if (!f)
    throw error(sys_error("cannot open", path));
  trace_data t;
  t.header = read_header(f.get(), path);
  long offset = sizeof t.header;
  chunk_header c;
  while (std::fread(&c, sizeof c, 1, f.get()) == 1) {
    if (c.magic != kChunkMagic)
      bad(path, offset, "bad chunk header");
    offset += sizeof c;
    std::size_t first = t.records.size();
    t.records.resize(first + c.records);
    if (std::fread(t.records.data() + first, sizeof(record), c.records,
                   f.get()) != c.records)
      bad(path, offset,
          "truncated chunk of " + std::to_string(c.records) + " records");
    uint32_t deps_due = 0;
    uint64_t owner_time = 0;
    for (std::size_t i = first; i < t.records.size(); ++i) {
      const record &r = t.records[i];
      long at = offset + static_cast<long>((i - first) * sizeof(record));
      if (!known(r.type))
        bad(path, at, "unknown record kind " + std::to_string(int(r.type)));
      if (r.thread != c.thread)
        bad(path, at,
            "record of thread " + std::to_string(r.thread) +
                " in a chunk of thread " + std::to_string(c.thread));
      if (deps_due > 0) {
        if (r.type != kind::dep)
          bad(path, at,
              "expected " + std::to_string(deps_due) + " more dep records");
        if (r.time != owner_time)
          bad(path, at, "dep record's time differs from its owner's");
        --deps_due;
      } else if (r.type == kind::dep) {
        bad(path, at, "dep record without a task_create or wait_begin");
      } else if (r.type == kind::task_create || r.type == kind::wait_begin) {
        deps_due = r.count;
        owner_time = r.time;
      }
    }
    if (deps_due > 0)
      bad(path, offset,
          "chunk ends " + std::to_string(deps_due) + " dep records short");
    offset += static_cast<long>(c.records * sizeof(record));
  }
  if (!std::feof(f.get()))
    bad(path, offset, std::string("read error: ") + std::strerror(errno));
  if (offset != std::ftell(f.get()))
    bad(path, offset, "trailing bytes after the last chunk");
  std::stable_sort(
      t.records.begin(), t.records.end(),
      [](const record &a, const record &b) { return a.time < b.time; });
  return t;
}

const char *name(kind k) {
  switch (k) {
  case kind::task_create:
    return "task_create";
  case kind::dep:
    return "dep";
  case kind::task_begin:
    return "task_begin";
  case kind::task_end:
    return "task_end";
  case kind::wait_begin:
    return "wait_begin";
  case kind::wait_end:
    return "wait_end";
  case kind::overhead:
    return "overhead";
  case kind::counter:
    return "counter";
  case kind::region_begin:
    return "region_begin";
  case kind::region_end:
    return "region_end";
  case kind::rtask_arg:
    return "rtask_arg";
  }
  return "unknown";
}

const char *name(dep_mode m) {
  switch (m) {
  case dep_mode::in:
    return "in";
  case dep_mode::out:
    return "out";
  case dep_mode::inout:
    return "inout";
  case dep_mode::inoutset:
    return "inoutset";
  case dep_mode::mutexinoutset:
    return "mutexinoutset";
  }
  return "unknown";
}

const char *name(wait_kind w) {
  switch (w) {
  case wait_kind::taskwait:
    return "taskwait";
  case wait_kind::taskwait_on:
    return "taskwait_on";
  case wait_kind::taskgroup:
    return "taskgroup";
  case wait_kind::barrier:
    return "barrier";
  }
  return "unknown";
}

const char *name(overhead_kind o) {
  switch (o) {
  case overhead_kind::spawn:
    return "spawn";
  case overhead_kind::schedule:
    return "schedule";
  case overhead_kind::finish:
    return "finish";
  }
  return "unknown";
}

const char *name(counter_id c) {
  switch (c) {
  case counter_id::ready:
    return "ready";
  case counter_id::in_flight:
    return "in_flight";
  case counter_id::engine:
    return "engine";
  }
  return "unknown";
}

} // namespace weft::trace
