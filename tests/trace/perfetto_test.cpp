// `weft trace export --perfetto` on real traces (gcc -fopenmp programs run
// under `weft run --trace`): the output read back with libprotobuf as
// Perfetto's Trace message must hold one slice per task, one flow per
// dependence edge of the task graph (trace_graph), and slices that nest
// on each worker's track in time order; and the JSON export says how big
// it is.
#include "perfetto_trace.pb.h"

#include "run_command.hpp"
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace weft;
namespace pb = perfetto::protos;

using result = trace_test::command_result;

result run(const std::string &cmd) { return trace_test::run_command(cmd); }

std::string temp_path(const std::string &tag) {
  return testing::TempDir() + "weft_perfetto_" + tag + "_" +
         std::to_string(getpid());
}

uint64_t annotation(const pb::TrackEvent &e, const std::string &name) {
  for (const pb::DebugAnnotation &a : e.debug_annotations())
    if (a.name() == name)
      return a.uint_value();
  ADD_FAILURE() << "no annotation " << name;
  return 0;
}

class perfetto_export : public testing::TestWithParam<const char *> {};

TEST_P(perfetto_export, TasksFlowsAndOrderMatchTheTaskGraph) {
  std::string engine = GetParam();
  std::string trace = temp_path(engine) + ".wtr";
  std::string out = temp_path(engine) + ".perfetto-trace";
  result r = run(std::string(WEFT_CLI) + " run --threads 2 --engine " + engine +
                 " --trace " + trace + " -- " + OMP_WAVEFRONT + " 8");
  ASSERT_EQ(r.status, 0) << r.output;
  r = run(std::string(WEFT_CLI) + " trace export --perfetto " + trace + " -o " +
          out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(out), std::string::npos) << r.output;

  trace::task_graph g = trace::build_graph(trace::read(trace));
  pb::Trace t;
  {
    std::ifstream f(out, std::ios::binary);
    ASSERT_TRUE(t.ParseFromIstream(&f)) << out;
  }

  std::map<uint64_t, uint16_t> thread_track; // uuid -> tid
  std::set<uint64_t> counter_tracks;
  for (const pb::TracePacket &p : t.packet())
    if (p.has_track_descriptor()) {
      const pb::TrackDescriptor &d = p.track_descriptor();
      if (d.has_thread())
        thread_track[d.uuid()] = static_cast<uint16_t>(d.thread().tid());
      if (d.has_counter())
        counter_tracks.insert(d.uuid());
    }

  // Task slices: one per task, on the track of the worker that ran it, at
  // its begin time.
  std::map<uint64_t, const trace::task_node *> by_id;
  for (const trace::task_node &n : g.tasks)
    by_id[n.id] = &n;
  std::map<uint64_t, uint64_t> task_of_flow_end; // flow -> task id
  std::map<uint64_t, uint64_t> flow_start_at;    // flow -> timestamp
  std::set<std::pair<uint64_t, uint64_t>> flow_edges;
  std::set<uint64_t> seen;
  int counters = 0;
  // Per track: (timestamp, emission index, +1 begin / -1 end).
  std::map<uint64_t, std::vector<std::tuple<uint64_t, std::size_t, int>>>
      events;
  for (std::size_t i = 0; i < static_cast<std::size_t>(t.packet_size()); ++i) {
    const pb::TracePacket &p = t.packet(static_cast<int>(i));
    EXPECT_EQ(p.trusted_packet_sequence_id(), 1u);
    if (!p.has_track_event())
      continue;
    const pb::TrackEvent &e = p.track_event();
    if (e.type() == pb::TrackEvent::TYPE_COUNTER) {
      EXPECT_TRUE(counter_tracks.count(e.track_uuid()));
      ++counters;
      continue;
    }
    ASSERT_TRUE(thread_track.count(e.track_uuid())) << e.DebugString();
    if (e.type() == pb::TrackEvent::TYPE_SLICE_BEGIN)
      events[e.track_uuid()].emplace_back(p.timestamp(), i, +1);
    if (e.type() == pb::TrackEvent::TYPE_SLICE_END)
      events[e.track_uuid()].emplace_back(p.timestamp(), i, -1);
    bool task = e.categories_size() == 1 &&
                (e.categories(0) == "task" || e.categories(0) == "implicit");
    if (e.type() == pb::TrackEvent::TYPE_SLICE_BEGIN && task) {
      uint64_t id = annotation(e, "id");
      EXPECT_EQ(e.name(), "task " + std::to_string(id));
      EXPECT_TRUE(seen.insert(id).second) << "two slices of task " << id;
      ASSERT_TRUE(by_id.count(id)) << id;
      EXPECT_EQ(p.timestamp(), by_id[id]->begin_ns);
      EXPECT_EQ(thread_track[e.track_uuid()], 2 + by_id[id]->worker);
      for (uint64_t f : e.terminating_flow_ids())
        EXPECT_TRUE(task_of_flow_end.emplace(f, id).second) << f;
    }
    if (e.type() == pb::TrackEvent::TYPE_INSTANT) {
      ASSERT_EQ(e.flow_ids_size(), 1) << e.DebugString();
      uint64_t from = annotation(e, "from"), to = annotation(e, "to");
      ASSERT_TRUE(by_id.count(from));
      const trace::task_node &pred = *by_id[from];
      // Inside the predecessor's slice, on its worker's track.
      EXPECT_GE(p.timestamp(), pred.begin_ns);
      EXPECT_LE(p.timestamp(), pred.end_ns);
      EXPECT_EQ(thread_track[e.track_uuid()], 2 + pred.worker);
      EXPECT_TRUE(flow_start_at.emplace(e.flow_ids(0), p.timestamp()).second);
      EXPECT_TRUE(flow_edges.insert({from, to}).second);
    }
  }
  EXPECT_EQ(seen.size(), g.tasks.size());
  EXPECT_GT(counters, 0);

  // Flows: exactly the graph's edges, each started once and ended once,
  // the start not after the successor's begin.
  std::set<std::pair<uint64_t, uint64_t>> graph_edges;
  for (const trace::task_node &n : g.tasks)
    for (uint32_t i = 0; i < n.nsuccs; ++i)
      graph_edges.insert({n.id, g.tasks[g.succs[n.first_succ + i]].id});
  EXPECT_GT(graph_edges.size(), 100u);
  EXPECT_EQ(flow_edges, graph_edges);
  EXPECT_EQ(flow_start_at.size(), task_of_flow_end.size());
  for (const auto &[flow, at] : flow_start_at) {
    ASSERT_TRUE(task_of_flow_end.count(flow)) << flow;
    EXPECT_LE(at, by_id[task_of_flow_end[flow]]->begin_ns);
  }

  // Order: on each track, in time order (ties in the order written, as
  // Perfetto's importer sorts), every end closes an open slice and every
  // slice is closed at the end.
  for (auto &[track, ev] : events) {
    std::stable_sort(ev.begin(), ev.end(), [](const auto &a, const auto &b) {
      return std::get<0>(a) < std::get<0>(b);
    });
    int depth = 0;
    for (const auto &[ts, index, delta] : ev) {
      depth += delta;
      ASSERT_GE(depth, 0) << "track " << track << " packet " << index;
    }
    EXPECT_EQ(depth, 0) << "track " << track;
  }
  std::remove(trace.c_str());
  std::remove(out.c_str());
}

INSTANTIATE_TEST_SUITE_P(engines, perfetto_export,
                         testing::Values("sw", "picos"));

TEST(perfetto_export_errors, BadTraceFailsNamingItAndLeavesNoOutput) {
  std::string bad = temp_path("bad") + ".wtr";
  std::string out = temp_path("bad") + ".perfetto-trace";
  {
    std::ofstream f(bad);
    f << std::string(200, 'x');
  }
  result r = run(std::string(WEFT_CLI) + " trace export --perfetto " + bad +
                 " -o " + out);
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(bad), std::string::npos) << r.output;
  EXPECT_NE(access(out.c_str(), F_OK), 0);
  r = run(std::string(WEFT_CLI) + " trace export " + bad);
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("--perfetto or --chrome"), std::string::npos)
      << r.output;
  std::remove(bad.c_str());
}

TEST(chrome_export, SaysHowBigTheJsonIs) {
  std::string trace = temp_path("json") + ".wtr";
  std::string out = temp_path("json") + ".json";
  result r = run(std::string(WEFT_CLI) + " run --threads 2 --trace " + trace +
                 " -- " + OMP_WAVEFRONT + " 6");
  ASSERT_EQ(r.status, 0) << r.output;
  r = run(std::string(WEFT_CLI) + " trace export --chrome " + trace + " -o " +
          out);
  ASSERT_EQ(r.status, 0) << r.output;
  long size = 0;
  {
    std::ifstream f(out, std::ios::binary | std::ios::ate);
    size = static_cast<long>(f.tellg());
  }
  // "about N MB" with N within a factor of 2 of the file (rounded to MB,
  // so a small file says 0).
  auto at = r.output.find("about ");
  ASSERT_NE(at, std::string::npos) << r.output;
  double said = std::stod(r.output.substr(at + 6));
  EXPECT_LE(said, 2.0 * double(size) / 1e6 + 0.5) << r.output;
  EXPECT_GE(said, 0.5 * double(size) / 1e6 - 0.5) << r.output;
  std::remove(trace.c_str());
  std::remove(out.c_str());
}

} // namespace
