#include "trace/read/trace_reader.hpp"

#include "trace/compact.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
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

} // namespace

void thread_decoder::deps_done(std::vector<record> &out) {
  if (deps_due_ == 0 && spawn_due_) {
    spawn_due_ = false;
    overhead(out, overhead_kind::spawn, spawn_task_, spawn_from_, spawn_to_);
  }
}

void thread_decoder::overhead(std::vector<record> &out, overhead_kind k,
                              uint64_t task, uint64_t from, uint64_t to) {
  uint64_t start = next_ns(from);
  uint64_t end = ns_of(to);
  out.push_back(record{kind::overhead, static_cast<uint8_t>(k), thread_, 0,
                       start, task, end > start ? end - start : 0});
}

void thread_decoder::run_span(std::vector<record> &out, record e,
                              uint64_t begin, uint64_t end) {
  e.type = kind::task_begin;
  e.count = 0;
  e.arg = 0;
  e.time = next_ns(begin);
  out.push_back(e);
  e.type = kind::task_end;
  e.time = next_ns(end);
  out.push_back(e);
}

void thread_decoder::created_with_dep(std::vector<record> &out, record &e,
                                      const record &r, uint8_t mode) {
  const uint64_t id = r.task & 0xffffffffu;
  e.type = kind::task_create;
  e.sub = r.sub & 0x0f;
  e.count = 1;
  e.task = id;
  e.arg = r.arg & 0xffffffffu;
  e.time = next_ns(r.time);
  out.push_back(e);
  out.push_back(record{kind::dep, mode, thread_, 0, e.time, id,
                       uint64_t(r.count) << 32 | r.task >> 32});
}

std::string thread_decoder::add(const record &r, std::vector<record> &out) {
  if (r.type < kind::task_create || r.type > last_kind_)
    return "unknown record kind " + std::to_string(int(r.type));
  if (r.thread != thread_)
    return "record of thread " + std::to_string(r.thread) +
           " in a chunk of thread " + std::to_string(thread_);
  if (deps_due_ > 0) {
    if (r.type == kind::deps) {
      if (r.sub < 1 || r.sub > 3 || r.sub > deps_due_)
        return "deps record of " + std::to_string(int(r.sub)) +
               " dependences where " + std::to_string(deps_due_) + " are due";
      const uint64_t addr[3] = {r.time, r.task, r.arg};
      uint64_t at = next_ns(owner_time_);
      for (int i = 0; i < r.sub; ++i)
        out.push_back(record{kind::dep, uint8_t(r.count >> (8 * i)), thread_, 0,
                             at, owner_task_, addr[i]});
      deps_due_ -= r.sub;
      deps_done(out);
      return {};
    }
    if (r.type != kind::dep)
      return "expected " + std::to_string(deps_due_) + " more dep records";
    if (r.time != owner_time_)
      return "dep record's time differs from its owner's";
    record e = r;
    e.time = next_ns(r.time);
    out.push_back(e);
    --deps_due_;
    deps_done(out);
    return {};
  }
  const timed_inline last = timed_;
  timed_.valid = false;
  record e = r;
  switch (r.type) {
  case kind::task_inline_run:
    return inline_run(out, r, last);
  case kind::dep:
  case kind::deps:
    return std::string(name(r.type)) +
           " record without a task_create or wait_begin";
  case kind::task_create:
  case kind::wait_begin:
    deps_due_ = r.count;
    owner_time_ = r.time;
    owner_task_ = r.task;
    break;
  case kind::overhead:
    overhead(out, overhead_kind(r.sub), r.task, r.time, r.time + r.arg);
    return {};
  case kind::task_spawn:
    deps_due_ = r.count;
    owner_time_ = r.time;
    owner_task_ = r.task;
    e.type = kind::task_create;
    e.arg = r.arg & 0xffffffffu;
    e.time = next_ns(r.time);
    out.push_back(e);
    spawn_task_ = r.task;
    spawn_from_ = r.time;
    spawn_to_ = r.time + (r.arg >> 32);
    if (deps_due_ > 0)
      spawn_due_ = true;
    else
      overhead(out, overhead_kind::spawn, spawn_task_, spawn_from_, spawn_to_);
    return {};
  case kind::task_spawn_dep: {
    created_with_dep(out, e, r, uint8_t(r.sub >> 4));
    overhead(out, overhead_kind::spawn, e.task, r.time, r.time + (r.arg >> 32));
    return {};
  }
  case kind::task_exec:
    overhead(out, overhead_kind::schedule, r.task, r.arg, r.time);
    run_span(out, e, r.time, r.time + r.count);
    return {};
  case kind::task_inline:
    if (r.sub & 0x70)
      return "task_inline record with unknown sub bits " +
             std::to_string(int(r.sub));
    e.type = kind::task_create;
    e.sub = r.sub & 0x0f;
    e.count = 0;
    e.time = next_ns(r.time);
    out.push_back(e);
    e.type = kind::task_begin;
    e.sub = 0;
    e.arg = 0;
    out.push_back(e);
    if (r.sub & kInlineEnded) {
      e.type = kind::task_end;
      e.time = next_ns(r.time + r.count);
      out.push_back(e);
      timed_ = timed_inline{true,    false,           uint8_t(r.sub & 0x0f),
                            0,       r.task,          r.arg & 0xffffffffu,
                            r.count, r.time + r.count};
    }
    return {};
  case kind::task_inline_dep: {
    const uint8_t mode = (r.sub >> 4) & 7;
    if (mode < uint8_t(dep_mode::in) || mode > uint8_t(dep_mode::mutexinoutset))
      return "task_inline_dep record with dependence mode " +
             std::to_string(int(mode));
    if (!(r.sub & kInlineEnded) && (r.arg >> 32) != 0)
      return "task_inline_dep record with a body length but no end";
    created_with_dep(out, e, r, mode);
    e.type = kind::task_begin;
    e.sub = 0;
    e.count = 0;
    e.arg = 0;
    out.push_back(e);
    if (r.sub & kInlineEnded) {
      e.type = kind::task_end;
      e.time = next_ns(r.time + (r.arg >> 32));
      out.push_back(e);
      timed_ = timed_inline{true,
                            true,
                            uint8_t(r.sub & 0x0f),
                            mode,
                            r.task & 0xffffffffu,
                            r.arg & 0xffffffffu,
                            r.arg >> 32,
                            r.time + (r.arg >> 32),
                            uint64_t(r.count) << 32 | r.task >> 32};
    }
    return {};
  }
  case kind::task_exec2: {
    if (r.arg >> 63)
      return "task_exec2 record with bit 63 of arg set";
    uint64_t id2 = r.task >> 32, end1 = r.time + r.count;
    uint64_t at2 = end1 + exec2_field(r.arg, 1);
    e.task = r.task & 0xffffffffu;
    overhead(out, overhead_kind::schedule, e.task,
             r.time - exec2_field(r.arg, 0), r.time);
    run_span(out, e, r.time, end1);
    overhead(out, overhead_kind::schedule, id2, end1, at2);
    e.task = id2;
    run_span(out, e, at2, at2 + exec2_field(r.arg, 2));
    return {};
  }
  case kind::task_run:
    overhead(out, overhead_kind::schedule, r.task, r.arg, r.time);
    e.type = kind::task_begin;
    e.arg = 0;
    e.time = next_ns(r.time);
    out.push_back(e);
    return {};
  case kind::task_done:
    e.type = kind::task_end;
    e.arg = 0;
    e.time = next_ns(r.time);
    out.push_back(e);
    overhead(out, overhead_kind::finish, r.task, r.time, r.arg);
    return {};
  default:
    break;
  }
  e.time = next_ns(r.time);
  out.push_back(e);
  return {};
}

std::string thread_decoder::inline_run(std::vector<record> &out,
                                       const record &r, const timed_inline &t) {
  if (!t.valid)
    return "task_inline_run record not right after a task_inline or "
           "task_inline_dep with its end";
  if (r.sub != 0)
    return "task_inline_run record with sub " + std::to_string(int(r.sub));
  if (r.count == 0 || r.count > kInlineRunMax)
    return "task_inline_run record of " + std::to_string(r.count) +
           " tasks (1-" + std::to_string(kInlineRunMax) + ")";
  if (r.task != t.id + 1 || r.task + r.count - 1 > UINT32_MAX)
    return "task_inline_run record's first id " + std::to_string(r.task) +
           " does not follow task " + std::to_string(t.id);
  if (r.time != t.end)
    return "task_inline_run record's time is not its timed task's end";
  const uint64_t b = inline_run_body(t.body, r.arg, r.count);
  for (uint64_t j = 0; j < r.count; ++j) {
    const uint64_t id = r.task + j;
    const uint64_t at = inline_run_begin(r.time, t.body, r.arg, r.count, j);
    const uint64_t ns = next_ns(at);
    out.push_back(record{kind::task_create, t.flags, thread_,
                         t.has_dep ? 1u : 0u, ns, id, t.parent});
    if (t.has_dep)
      out.push_back(record{kind::dep, t.mode, thread_, 0, ns, id, t.addr});
    out.push_back(record{kind::task_begin, 0, thread_, 0, ns, id, 0});
    out.push_back(
        record{kind::task_end, 0, thread_, 0, next_ns(at + b), id, 0});
  }
  // What follows the run's last gap: the next record, at time + arg or later.
  return {};
}

std::string thread_decoder::end_chunk() const {
  if (deps_due_ > 0)
    return "chunk ends " + std::to_string(deps_due_) + " dep records short";
  return {};
}

file_header read_header(std::FILE *f, const std::string &path) {
  file_header h;
  // Magic and version first: another version's header may be shorter.
  constexpr std::size_t kHead = sizeof h.magic + sizeof h.version;
  if (std::fread(&h, kHead, 1, f) != 1)
    bad(path, 0, "shorter than a trace header (not a weft trace?)");
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    bad(path, 0, "not a weft trace (bad magic)");
  if (h.version < kOldestVersion || h.version > kVersion)
    bad(path, 8,
        "trace format version " + std::to_string(h.version) +
            ", this weft reads versions " + std::to_string(kOldestVersion) +
            " to " + std::to_string(kVersion) +
            " only (record the trace again with this weft)");
  if (std::fread(reinterpret_cast<char *>(&h) + kHead, sizeof h - kHead, 1,
                 f) != 1)
    bad(path, 0, "shorter than a trace header (not a weft trace?)");
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
  std::map<uint16_t, thread_decoder> decoders;
  std::vector<record> raw;
  const bool compact = t.header.version >= kCompactVersion;
  std::vector<uint8_t> bytes;  // a compact chunk's payload
  std::vector<uint32_t> at_of; // each of its records' offset in it
  while (std::fread(&c, sizeof c, 1, f.get()) == 1) {
    if (c.magic != kChunkMagic)
      bad(path, offset, "bad chunk header");
    offset += sizeof c;
    if (compact) {
      bytes.resize(c.bytes);
      if (std::fread(bytes.data(), 1, c.bytes, f.get()) != c.bytes)
        bad(path, offset,
            "truncated chunk of " + std::to_string(c.bytes) + " bytes");
      std::size_t at = 0;
      if (std::string why = compact::decode(bytes.data(), c.bytes, c.records,
                                            c.thread, raw, &at_of, &at);
          !why.empty())
        bad(path, offset + static_cast<long>(at), why);
    } else {
      if (c.bytes != 0)
        bad(path, offset - 4, "chunk header's reserved field is not 0");
      raw.resize(c.records);
      if (std::fread(raw.data(), sizeof(record), c.records, f.get()) !=
          c.records)
        bad(path, offset,
            "truncated chunk of " + std::to_string(c.records) + " records");
    }
    thread_decoder &d =
        decoders.try_emplace(c.thread, t.header, c.thread).first->second;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      std::string why = d.add(raw[i], t.records);
      if (!why.empty())
        bad(path,
            offset + static_cast<long>(compact ? at_of[i] : i * sizeof(record)),
            why);
    }
    if (std::string why = d.end_chunk(); !why.empty())
      bad(path, offset, why);
    offset += static_cast<long>(compact ? c.bytes : c.records * sizeof(record));
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
  case kind::task_spawn:
    return "task_spawn";
  case kind::task_run:
    return "task_run";
  case kind::task_done:
    return "task_done";
  case kind::region_new:
    return "region_new";
  case kind::rtask_spawn:
    return "rtask_spawn";
  case kind::rspawn_arg:
    return "rspawn_arg";
  case kind::rtask_run:
    return "rtask_run";
  case kind::rtask_done:
    return "rtask_done";
  case kind::phase:
    return "phase";
  case kind::rplace:
    return "rplace";
  case kind::rwait:
    return "rwait";
  case kind::task_spawn_dep:
    return "task_spawn_dep";
  case kind::deps:
    return "deps";
  case kind::task_exec:
    return "task_exec";
  case kind::task_inline:
    return "task_inline";
  case kind::task_inline_dep:
    return "task_inline_dep";
  case kind::task_exec2:
    return "task_exec2";
  case kind::task_inline_run:
    return "task_inline_run";
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
