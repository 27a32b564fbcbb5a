#include "perfetto_export.hpp"

#include "perfetto_trace.pb.h"

#include "trace/read/sibling_dependences.hpp"
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_stream.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <stdexcept>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace weft::cli {
namespace {

namespace pb = perfetto::protos;
using trace::kNone;

// Track uuids: the process, a slice track per worker, counter tracks.
constexpr uint64_t kProcessTrack = 1, kInFlightTrack = 2, kEngineTrack = 3;
constexpr uint64_t kWorkerTrack = 0x10000, kReadyTrack = 0x20000;
constexpr uint32_t kSequence = 1;
constexpr int32_t kPid = 1;

// Writes Trace.packet (field 1) entries one by one: the concatenation is
// a valid serialized Trace, so nothing but the current packet is held.
class packet_writer {
public:
  explicit packet_writer(const std::string &path) : path_(path) {
    fd_ = path == "-" ? 1
                      : ::open(path.c_str(),
                               O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw std::runtime_error("cannot write " + path + ": " +
                               std::strerror(errno));
    file_ = std::make_unique<google::protobuf::io::FileOutputStream>(fd_);
    coded_ =
        std::make_unique<google::protobuf::io::CodedOutputStream>(file_.get());
  }
  ~packet_writer() {
    coded_.reset();
    file_.reset();
    if (fd_ > 1)
      ::close(fd_);
  }
  void write(pb::TracePacket &p) {
    p.set_trusted_packet_sequence_id(kSequence);
    if (count_ == 0)
      p.set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
    coded_->WriteTag((1u << 3) |
                     2u); // Trace.packet, length-delimited (wire type 2)
    coded_->WriteVarint32(static_cast<uint32_t>(p.ByteSizeLong()));
    p.SerializeWithCachedSizes(coded_.get());
    ++count_;
    p.Clear();
  }
  // Flushes everything; throws if any write failed.
  void close() {
    bool ok = !coded_->HadError();
    coded_.reset();
    ok = file_->Close() && ok;
    fd_ = -1;
    if (!ok)
      throw std::runtime_error("writing " + path_ +
                               " failed: " + std::strerror(file_->GetErrno()));
  }
  uint64_t count() const { return count_; }

private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<google::protobuf::io::FileOutputStream> file_;
  std::unique_ptr<google::protobuf::io::CodedOutputStream> coded_;
  uint64_t count_ = 0;
};

enum class life : uint8_t { created, running, ended };

// What the export keeps of a task while it may still matter: until it
// ended and no sibling created later can depend on it (its parent ended,
// or it had no dependences).
struct live_task {
  uint64_t id = 0, parent_id = 0, create_ns = 0, begin_ns = 0, end_ns = 0;
  uint32_t parent = kNone; // slot
  uint16_t worker = 0, creator = 0;
  uint8_t flags = 0;
  life state = life::created;
  bool in_table = false;    // in its parent's dependence table
  bool parent_gone = false; // the parent ended: no later sibling will come
  std::string deps;         // "inout 0x..., in 0x..." until it begins
  std::vector<uint64_t> incoming;                      // flow ids
  std::vector<std::pair<uint64_t, uint64_t>> outgoing; // (flow id, successor)
  std::vector<uint32_t> table_children;                // slots, while it runs
};

class exporter {
public:
  exporter(const std::string &in, const std::string &out)
      : path_(in), stream_(in), w_(out) {}

  perfetto_counts run(const std::function<void(uint64_t, uint64_t)> &progress) {
    const trace::file_header &h = stream_.header();
    pb::TracePacket p;
    pb::TrackDescriptor *d = p.mutable_track_descriptor();
    d->set_uuid(kProcessTrack);
    d->mutable_process()->set_pid(kPid);
    d->mutable_process()->set_process_name(std::string(h.program) +
                                           " (weft, engine " + h.engine + ")");
    w_.write(p);
    counter_track(kInFlightTrack, "in_flight (tasks spawned, not completed)");
    trace::record r;
    std::vector<trace::dependence> deps;
    while (stream_.next(r)) {
      if ((stream_.done() & 0xffff) == 0)
        progress(stream_.done(), stream_.total());
      deps.clear();
      for (uint32_t i = 0; (r.type == trace::kind::task_create ||
                            r.type == trace::kind::wait_begin) &&
                           i < r.count;
           ++i) {
        trace::record dep;
        stream_.next(dep); // record_stream checked that they follow
        deps.push_back({dep.arg, trace::dep_mode(dep.sub)});
      }
      on(r, deps);
    }
    for (const auto &[id, slot] : index_)
      fail(id, slots_[slot].state == life::created
                   ? "created but never began"
                   : "began on thread " + std::to_string(slots_[slot].worker) +
                         " but never ended");
    progress(stream_.total(), stream_.total());
    counts_.packets = w_.count();
    w_.close();
    return counts_;
  }

private:
  [[noreturn]] void fail(uint64_t id, const std::string &what) const {
    throw trace::error("trace: " + path_ + ": task " + std::to_string(id) +
                       ": " + what);
  }

  void counter_track(uint64_t uuid, const std::string &name) {
    pb::TracePacket p;
    pb::TrackDescriptor *d = p.mutable_track_descriptor();
    d->set_uuid(uuid);
    d->set_parent_uuid(kProcessTrack);
    d->set_name(name);
    d->mutable_counter();
    w_.write(p);
  }

  // The worker's slice track, described the first time it is used.
  uint64_t worker_track(uint16_t t) {
    if (t >= described_.size())
      described_.resize(std::size_t(t) + 1, false);
    if (!described_[t]) {
      described_[t] = true;
      pb::TracePacket p;
      pb::TrackDescriptor *d = p.mutable_track_descriptor();
      d->set_uuid(kWorkerTrack + t);
      d->set_parent_uuid(kProcessTrack);
      d->mutable_thread()->set_pid(kPid);
      d->mutable_thread()->set_tid(kPid + 1 + t);
      d->mutable_thread()->set_thread_name("worker " + std::to_string(t));
      w_.write(p);
      counter_track(kReadyTrack + t,
                    "ready (worker " + std::to_string(t) + "'s team)");
    }
    return kWorkerTrack + t;
  }

  pb::TrackEvent *event(pb::TracePacket &p, uint64_t ns,
                        pb::TrackEvent::Type type, uint64_t track) {
    p.set_timestamp(ns);
    pb::TrackEvent *e = p.mutable_track_event();
    e->set_type(type);
    e->set_track_uuid(track);
    return e;
  }

  void slice(uint16_t thread, uint64_t ns, const char *name, const char *cat,
             uint64_t task) {
    pb::TracePacket p;
    pb::TrackEvent *e =
        event(p, ns, pb::TrackEvent::TYPE_SLICE_BEGIN, worker_track(thread));
    e->set_name(name);
    e->add_categories(cat);
    annotate(e, "task", task);
    w_.write(p);
  }

  void slice_end(uint16_t thread, uint64_t ns) {
    pb::TracePacket p;
    event(p, ns, pb::TrackEvent::TYPE_SLICE_END, worker_track(thread));
    w_.write(p);
  }

  static void annotate(pb::TrackEvent *e, const char *name, uint64_t v) {
    pb::DebugAnnotation *a = e->add_debug_annotations();
    a->set_name(name);
    a->set_uint_value(v);
  }
  static void annotate(pb::TrackEvent *e, const char *name,
                       const std::string &v) {
    pb::DebugAnnotation *a = e->add_debug_annotations();
    a->set_name(name);
    a->set_string_value(v);
  }

  // The arrow's start: an instant at the end of the predecessor's slice.
  void flow_start(const live_task &pred, uint64_t flow, uint64_t succ) {
    uint64_t at = pred.end_ns > pred.begin_ns ? pred.end_ns - 1 : pred.end_ns;
    pb::TracePacket p;
    pb::TrackEvent *e =
        event(p, at, pb::TrackEvent::TYPE_INSTANT, worker_track(pred.worker));
    e->set_name("dependence");
    e->add_categories("dep");
    e->add_flow_ids(flow);
    annotate(e, "from", pred.id);
    annotate(e, "to", succ);
    w_.write(p);
  }

  uint32_t slot_of(uint64_t id, const char *record) const {
    auto it = index_.find(id);
    if (it == index_.end())
      fail(id, std::string(record) + " without a task_create before it");
    return it->second;
  }

  uint32_t new_slot() {
    if (!free_.empty()) {
      uint32_t s = free_.back();
      free_.pop_back();
      return s;
    }
    slots_.emplace_back();
    return static_cast<uint32_t>(slots_.size() - 1);
  }

  void release(uint32_t s) {
    index_.erase(slots_[s].id);
    slots_[s] = live_task{};
    free_.push_back(s);
  }

  void on_create(const trace::record &r,
                 const std::vector<trace::dependence> &deps) {
    if (r.task == 0)
      fail(0, "task_create of task id 0");
    if (index_.count(r.task))
      fail(r.task, "created twice");
    uint32_t parent = kNone;
    if (r.arg != 0) {
      auto it = index_.find(r.arg);
      if (it == index_.end() || slots_[it->second].state != life::running)
        fail(r.task, "created by task " + std::to_string(r.arg) +
                         ", which is not running");
      parent = it->second;
    } else if (!deps.empty()) {
      fail(r.task, "a root task (parent 0) with dependences");
    }
    uint32_t s = new_slot();
    index_.emplace(r.task, s);
    live_task &t = slots_[s];
    t.id = r.task;
    t.parent_id = r.arg;
    t.parent = parent;
    t.create_ns = r.time;
    t.creator = r.thread;
    t.flags = r.sub;
    for (const trace::dependence &d : deps) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%s 0x%" PRIx64,
                    t.deps.empty() ? "" : ", ", trace::name(d.mode), d.address);
      t.deps += buf;
    }
    if (deps.empty())
      return;
    tables_[parent].add(deps.data(), static_cast<uint32_t>(deps.size()), s,
                        preds_);
    slots_[s].in_table = true;
    slots_[parent].table_children.push_back(s);
    for (uint32_t pred : preds_) {
      uint64_t flow = ++counts_.flows;
      slots_[s].incoming.push_back(flow);
      if (slots_[pred].state == life::ended)
        flow_start(slots_[pred], flow, r.task);
      else
        slots_[pred].outgoing.emplace_back(flow, r.task);
    }
  }

  void on_begin(const trace::record &r) {
    uint32_t s = slot_of(r.task, "task_begin");
    live_task &t = slots_[s];
    if (t.state != life::created)
      fail(r.task, "begins twice");
    t.state = life::running;
    t.worker = r.thread;
    t.begin_ns = r.time;
    pb::TracePacket p;
    pb::TrackEvent *e = event(p, r.time, pb::TrackEvent::TYPE_SLICE_BEGIN,
                              worker_track(r.thread));
    e->set_name("task " + std::to_string(t.id));
    e->add_categories((t.flags & trace::flag_implicit) ? "implicit" : "task");
    for (uint64_t f : t.incoming)
      e->add_terminating_flow_ids(f);
    annotate(e, "id", t.id);
    annotate(e, "parent", t.parent_id);
    annotate(e, "created_ns", t.create_ns);
    annotate(e, "creator_thread", t.creator);
    if (!t.deps.empty())
      annotate(e, "deps", t.deps);
    if (t.flags)
      annotate(e, "flags", trace::flag_names(t.flags));
    w_.write(p);
    ++counts_.tasks;
    t.incoming = {};
    t.deps = {};
  }

  void on_end(const trace::record &r) {
    uint32_t s = slot_of(r.task, "task_end");
    live_task &t = slots_[s];
    if (t.state == life::created)
      fail(r.task, "task_end without a task_begin");
    if (t.state == life::ended)
      fail(r.task, "ends twice");
    if (t.worker != r.thread)
      fail(r.task, "began on thread " + std::to_string(t.worker) +
                       " and ended on thread " + std::to_string(r.thread));
    t.state = life::ended;
    t.end_ns = r.time;
    slice_end(r.thread, r.time);
    for (auto [flow, succ] : t.outgoing)
      flow_start(t, flow, succ);
    t.outgoing = {};
    // No child created from now on can depend on its children.
    tables_.erase(s);
    for (uint32_t c : t.table_children) {
      slots_[c].parent_gone = true;
      if (slots_[c].state == life::ended)
        release(c);
    }
    t.table_children = {};
    if (!t.in_table || t.parent_gone)
      release(s);
  }

  void on(const trace::record &r, const std::vector<trace::dependence> &deps) {
    switch (r.type) {
    case trace::kind::task_create:
      on_create(r, deps);
      break;
    case trace::kind::task_begin:
      on_begin(r);
      break;
    case trace::kind::task_end:
      on_end(r);
      break;
    case trace::kind::wait_begin:
      slice(r.thread, r.time, trace::name(trace::wait_kind(r.sub)), "wait",
            r.task);
      break;
    case trace::kind::wait_end:
    case trace::kind::region_end:
      slice_end(r.thread, r.time);
      break;
    case trace::kind::region_begin:
      slice(r.thread, r.time, "parallel region", "region", r.task);
      break;
    case trace::kind::overhead:
      slice(r.thread, r.time, trace::name(trace::overhead_kind(r.sub)),
            "overhead", r.task);
      slice_end(r.thread, r.time + r.arg);
      break;
    case trace::kind::counter: {
      auto c = trace::counter_id(r.sub);
      uint64_t track = kEngineTrack;
      if (c == trace::counter_id::ready) {
        worker_track(r.thread);
        track = kReadyTrack + r.thread;
      } else if (c == trace::counter_id::in_flight) {
        track = kInFlightTrack;
      } else if (!engine_described_) {
        engine_described_ = true;
        counter_track(kEngineTrack, "engine occupancy");
      }
      pb::TracePacket p;
      event(p, r.time, pb::TrackEvent::TYPE_COUNTER, track)
          ->set_counter_value(static_cast<int64_t>(r.arg));
      w_.write(p);
      ++counts_.counters;
      break;
    }
    case trace::kind::dep:
      break; // consumed with its owner
    case trace::kind::rtask_arg:
    case trace::kind::region_new:
    case trace::kind::rtask_spawn:
    case trace::kind::rspawn_arg:
    case trace::kind::rtask_run:
    case trace::kind::rtask_done:
    case trace::kind::rwait:
      break; // region records: not exported yet
    case trace::kind::phase:
    case trace::kind::rplace:
      break; // phase marks and placements: not exported (`weft trace
             // summary` counts placements)
    case trace::kind::task_spawn:
    case trace::kind::task_run:
    case trace::kind::task_done:
    case trace::kind::task_spawn_dep:
    case trace::kind::deps:
    case trace::kind::task_exec:
    case trace::kind::task_inline:
    case trace::kind::task_inline_dep:
    case trace::kind::task_exec2:
    case trace::kind::task_inline_run:
      // record_stream expands the merged kinds into their events.
      throw trace::error("trace: " + path_ + ": a " + trace::name(r.type) +
                         " record reached the exporter unexpanded");
    }
  }

  std::string path_;
  trace::record_stream stream_;
  packet_writer w_;
  perfetto_counts counts_;
  std::vector<live_task> slots_;
  std::vector<uint32_t> free_;
  std::unordered_map<uint64_t, uint32_t> index_;
  std::unordered_map<uint32_t, trace::sibling_dependences> tables_;
  std::vector<uint32_t> preds_;
  std::vector<bool> described_;
  bool engine_described_ = false;
};

} // namespace

perfetto_counts
export_perfetto(const std::string &in, const std::string &out,
                const std::function<void(uint64_t, uint64_t)> &progress) {
  exporter e(in, out);
  return e.run(progress);
}

} // namespace weft::cli
