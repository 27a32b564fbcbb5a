// Hand-built traces for the tests: records per thread, written with
// trace::writer and read back with trace::read (the path a real trace takes).
#pragma once

#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"
#include "trace/record/trace_writer.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace weft::trace_test {

class trace_builder {
public:
  using deps = std::vector<std::pair<uint64_t, trace::dep_mode>>;

  // A thread's root task: created (parent 0, implicit) and begun at `time`.
  void root(uint16_t th, uint64_t id, uint64_t time) {
    create(th, time, id, 0, {}, trace::flag_implicit);
    begin(th, time, id);
  }
  void create(uint16_t th, uint64_t time, uint64_t id, uint64_t parent,
              const deps &d = {}, uint8_t flags = 0) {
    add(th, trace::kind::task_create, time, id, parent,
        static_cast<uint32_t>(d.size()), flags);
    for (const auto &[addr, mode] : d)
      add(th, trace::kind::dep, time, id, addr, 0, uint8_t(mode));
  }
  void begin(uint16_t th, uint64_t time, uint64_t id) {
    add(th, trace::kind::task_begin, time, id);
  }
  void end(uint16_t th, uint64_t time, uint64_t id) {
    add(th, trace::kind::task_end, time, id);
  }
  // task_begin and task_end of a task without children.
  void run(uint16_t th, uint64_t from, uint64_t to, uint64_t id) {
    begin(th, from, id);
    end(th, to, id);
  }
  void wait_begin(uint16_t th, uint64_t time, uint64_t id, trace::wait_kind w,
                  const deps &d = {}) {
    add(th, trace::kind::wait_begin, time, id, 0,
        static_cast<uint32_t>(d.size()), uint8_t(w));
    for (const auto &[addr, mode] : d)
      add(th, trace::kind::dep, time, id, addr, 0, uint8_t(mode));
  }
  void wait_end(uint16_t th, uint64_t time, uint64_t id, trace::wait_kind w) {
    add(th, trace::kind::wait_end, time, id, 0, 0, uint8_t(w));
  }
  void overhead(uint16_t th, uint64_t start, uint64_t duration,
                trace::overhead_kind k, uint64_t task) {
    add(th, trace::kind::overhead, start, task, duration, 0, uint8_t(k));
  }
  void region_begin(uint16_t th, uint64_t time, uint64_t id, uint32_t team) {
    add(th, trace::kind::region_begin, time, id, 0, team);
  }
  void region_end(uint16_t th, uint64_t time, uint64_t id) {
    add(th, trace::kind::region_end, time, id);
  }

  // Region programs: task `by` made region `id` inside `parent`; task `by`
  // spawned region task number `seq` with these arguments (WEFT_ARG_* bits,
  // region id or address, the object's region or the region's parent); the
  // core task `core` runs region task `seq`.
  struct rarg {
    uint8_t bits;
    uint64_t what;
    uint32_t within;
  };
  void region_new(uint16_t th, uint64_t time, uint64_t by, uint32_t id,
                  uint32_t parent) {
    add(th, trace::kind::region_new, time, by, id, parent);
  }
  void rtask_spawn(uint16_t th, uint64_t time, uint64_t by, uint64_t seq,
                   const std::vector<rarg> &args) {
    add(th, trace::kind::rtask_spawn, time, by, seq,
        static_cast<uint32_t>(args.size()));
    for (const rarg &a : args)
      add(th, trace::kind::rspawn_arg, time, by, a.what, a.within, a.bits);
  }
  // Task `by` calls weft_wait on these arguments (rwait).
  void rwait(uint16_t th, uint64_t time, uint64_t by,
             const std::vector<rarg> &args) {
    add(th, trace::kind::rwait, time, by, 0,
        static_cast<uint32_t>(args.size()));
    for (const rarg &a : args)
      add(th, trace::kind::rspawn_arg, time, by, a.what, a.within, a.bits);
  }
  void rtask_run(uint16_t th, uint64_t time, uint64_t core, uint64_t seq) {
    add(th, trace::kind::rtask_run, time, core, seq);
  }

  // Task `by` marks the begin or end of phase `name`.
  void phase(uint16_t th, uint64_t time, uint64_t by, trace::phase_edge e,
             const char *name) {
    uint64_t arg = 0;
    uint32_t count = 0;
    trace::pack_phase_name(name, arg, count);
    add(th, trace::kind::phase, time, by, arg, count, uint8_t(e));
  }

  // Writes the trace to a temporary file; its path.
  std::string write(const char *engine = "sw") {
    std::string path = std::string(::testing::TempDir()) + "weft_graph_" +
                       std::to_string(getpid()) + "_" +
                       std::to_string(serial_++) + ".wtr";
    trace::writer w(path, trace::make_header(engine, "test",
                                             uint32_t(by_thread_.size()), 0));
    for (const auto &[th, rs] : by_thread_)
      w.write_chunk(th, rs.data(), rs.size());
    w.close();
    return path;
  }
  // The trace as trace::read returns it.
  trace::trace_data data() {
    std::string path = write();
    trace::trace_data t = trace::read(path);
    std::remove(path.c_str());
    return t;
  }

private:
  void add(uint16_t th, trace::kind k, uint64_t time, uint64_t task,
           uint64_t arg = 0, uint32_t count = 0, uint8_t sub = 0) {
    trace::record r{};
    r.type = k;
    r.sub = sub;
    r.thread = th;
    r.count = count;
    r.time = time;
    r.task = task;
    r.arg = arg;
    by_thread_[th].push_back(r);
  }

  std::map<uint16_t, std::vector<trace::record>> by_thread_;
  inline static int serial_ = 0;
};

// A trace that build_graph refuses: on thread 0, task 3's spawn segment
// overlaps the body of task 2, an undeferred task run inside it (as an
// estimated spawn segment too long for its thread would); its message,
// after "trace: " (build_graph) or "trace FILE: " (weft sim).
inline trace_builder spawn_overlapping_a_body() {
  trace_builder b;
  b.root(0, 1, 0);
  b.create(0, 100, 3, 1);
  b.overhead(0, 100, 200, trace::overhead_kind::spawn, 3);
  b.create(0, 150, 2, 1, {}, trace::flag_undeferred);
  b.run(0, 200, 400, 2);
  b.run(1, 500, 600, 3);
  b.end(0, 700, 1);
  return b;
}
inline const char *const kSpawnOverlapsABody =
    "thread 0: task 3's spawn segment [100, 300] overlaps task 2's body "
    "[200, 400] (ns since the trace's start)";

// build_graph's error message for b's trace, or "" when it builds.
inline std::string graph_error(trace_builder &b) {
  try {
    trace::build_graph(b.data());
  } catch (const trace::error &e) {
    return e.what();
  }
  return "";
}

} // namespace weft::trace_test
