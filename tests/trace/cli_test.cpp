// `weft trace` and the OpenMP path: a gcc -fopenmp program under `weft run`
// with WEFT_TRACE set; its trace through `weft trace summary` and
// `weft trace export --chrome` (the JSON parsed back); bad input files.
#include "run_command.hpp"
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"
#include "trace_builder.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace weft;

using result = trace_test::command_result;

result run(const std::string &cmd) { return trace_test::run_command(cmd); }

std::string temp_path(const char *tag) {
  return testing::TempDir() + "weft_cli_" + tag + "_" +
         std::to_string(getpid());
}

// The OpenMP program's trace under an engine.
std::string omp_trace(const char *engine) {
  std::string path = temp_path(engine) + ".trace";
  // WEFT_TRACE itself under sw, `weft run --trace` under the others.
  std::string cmd = std::string(engine) == "sw"
                        ? "WEFT_TRACE=" + path + " " + WEFT_CLI + " run"
                        : std::string(WEFT_CLI) + " run --trace " + path;
  result r = run(cmd + " --threads 2 --engine " + engine + " -- " + OMP_TRACED);
  EXPECT_EQ(r.status, 0) << r.output;
  return path;
}

class omp_run : public testing::TestWithParam<const char *> {};

TEST_P(omp_run, TraceHasTheRegionImplicitTasksAndTheDiamond) {
  std::string path = omp_trace(GetParam());
  trace::trace_data t = trace::read(path);
  trace::task_graph g = trace::build_graph(t);
  int implicit = 0, explicit_tasks = 0;
  for (const trace::task_node &n : g.tasks)
    (n.flags & trace::flag_implicit) ? ++implicit : ++explicit_tasks;
  // The initial thread's implicit task and the region's two.
  EXPECT_EQ(implicit, 3);
  EXPECT_EQ(explicit_tasks, 4);
  ASSERT_EQ(g.regions.size(), 1u);
  EXPECT_EQ(g.regions[0].size, 2u);
  EXPECT_EQ(g.succs.size(), 4u); // the diamond's edges
  int barriers = 0;
  for (const trace::record &r : t.records)
    barriers += r.type == trace::kind::wait_begin &&
                r.sub == static_cast<uint8_t>(trace::wait_kind::barrier);
  EXPECT_GE(barriers, 2); // the region's end barrier, on each member

  result s = run(std::string(WEFT_CLI) + " trace summary " + path);
  EXPECT_EQ(s.status, 0) << s.output;
  EXPECT_NE(s.output.find("4 explicit, 3 implicit"), std::string::npos)
      << s.output;
  std::remove(path.c_str());
}

// The summary gives each overhead kind's mean, median and 90th
// percentile (nearest rank): ten spawns of 100 ns but one of 500 and one
// of 1000 have a mean of 230, a median of 100 and a p90 of 500.
TEST(TraceSummary, OverheadHasMeanMedianAndP90) {
  trace_test::trace_builder b;
  b.root(0, 1, 0);
  const uint64_t lengths[] = {100, 100, 1000, 100, 100,
                              500, 100, 100,  100, 100};
  uint64_t t = 10;
  for (uint64_t i = 0; i < 10; ++i) {
    b.create(0, t, 2 + i, 1);
    b.overhead(0, t, lengths[i], trace::overhead_kind::spawn, 2 + i);
    t += 2000;
  }
  for (uint64_t i = 0; i < 10; ++i)
    b.run(1, t + 10 * i, t + 10 * i + 5, 2 + i);
  b.end(0, t + 200, 1);
  std::string path = b.write();
  result s = run(std::string(WEFT_CLI) + " trace summary " + path);
  std::remove(path.c_str());
  ASSERT_EQ(s.status, 0) << s.output;
  std::string line;
  for (std::size_t at = 0; at < s.output.size();) {
    std::size_t nl = s.output.find('\n', at);
    std::string l = s.output.substr(at, nl - at);
    if (l.rfind("overhead  spawn", 0) == 0)
      line = l;
    at = nl == std::string::npos ? s.output.size() : nl + 1;
  }
  ASSERT_FALSE(line.empty()) << s.output;
  std::istringstream in(line);
  std::vector<std::string> w{std::istream_iterator<std::string>(in), {}};
  const std::vector<std::string> want = {
      "overhead", "spawn", "10",  "segments", "0.002", "ms", "230.0",
      "ns",       "mean",  "100", "median",   "500",   "p90"};
  EXPECT_EQ(w, want) << line;
}

INSTANTIATE_TEST_SUITE_P(engines, omp_run,
                         testing::Values("sw", "nexus", "picos"));

// Enough tasks that a worker writes a full buffer while the program runs,
// and the rest at exit (the OpenMP front end's path, after the program's
// thread-local objects are gone): the trace reads back whole.
TEST(omp_run_large, BuffersWrittenBeforeAndAtExitReadBack) {
  std::string path = temp_path("large") + ".trace";
  const int n = 60000;
  result r = run(std::string(WEFT_CLI) + " run --trace " + path +
                 " --threads 1 -- " + OMP_TRACED + " " + std::to_string(n));
  ASSERT_EQ(r.status, 0) << r.output;
  trace::task_graph g = trace::build_graph(trace::read(path));
  int explicit_tasks = 0;
  for (const trace::task_node &nd : g.tasks)
    explicit_tasks += !(nd.flags & trace::flag_implicit);
  EXPECT_EQ(explicit_tasks, n + 4);
  std::remove(path.c_str());
}

TEST(trace_export, ChromeJsonHasSlicesFlowsAndCounters) {
  std::string path = omp_trace("sw");
  std::string json_path = path + ".json";
  result r = run(std::string(WEFT_CLI) + " trace export --chrome " + path +
                 " -o " + json_path);
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream f(json_path);
  nlohmann::json j = nlohmann::json::parse(f);
  ASSERT_TRUE(j.contains("traceEvents"));
  trace::task_graph g = trace::build_graph(trace::read(path));

  std::multiset<std::string> task_slices;
  std::map<uint64_t, int> flow_s, flow_f;
  std::set<std::pair<uint64_t, uint64_t>> flow_edges;
  int counters = 0, overheads = 0, waits = 0;
  for (const auto &e : j["traceEvents"]) {
    std::string ph = e["ph"];
    if (ph == "X") {
      std::string cat = e["cat"];
      if (cat == "task" || cat == "implicit")
        task_slices.insert(e["name"].get<std::string>());
      overheads += cat == "overhead";
      waits += cat == "wait";
      EXPECT_GE(e["dur"].get<double>(), 0.0);
    } else if (ph == "s") {
      ++flow_s[e["id"].get<uint64_t>()];
      flow_edges.insert(
          {e["args"]["from"].get<uint64_t>(), e["args"]["to"].get<uint64_t>()});
    } else if (ph == "f") {
      ++flow_f[e["id"].get<uint64_t>()];
      EXPECT_EQ(e["bp"], "e");
    } else if (ph == "C") {
      ++counters;
    }
  }
  // One slice per task, named by its id.
  EXPECT_EQ(task_slices.size(), g.tasks.size());
  for (const trace::task_node &n : g.tasks)
    EXPECT_EQ(task_slices.count("task " + std::to_string(n.id)), 1u);
  // A start and a finish per dependence edge.
  EXPECT_EQ(flow_s.size(), g.succs.size());
  EXPECT_EQ(flow_s, flow_f);
  for (std::size_t p = 0; p < g.tasks.size(); ++p)
    for (uint32_t i = 0; i < g.tasks[p].nsuccs; ++i)
      EXPECT_TRUE(flow_edges.count(
          {g.tasks[p].id, g.tasks[g.succs[g.tasks[p].first_succ + i]].id}));
  EXPECT_GT(counters, 0);
  EXPECT_GT(overheads, 0);
  EXPECT_GT(waits, 0);
  std::remove(path.c_str());
  std::remove(json_path.c_str());
}

TEST(trace_export, MissingOrCorruptTraceFailsNamingTheFile) {
  std::string missing = temp_path("missing") + ".trace";
  for (const char *sub : {"summary", "export --chrome"}) {
    result r = run(std::string(WEFT_CLI) + " trace " + sub + " " + missing);
    EXPECT_NE(r.status, 0) << r.output;
    EXPECT_NE(r.output.find(missing), std::string::npos) << r.output;
  }
  std::string corrupt = temp_path("corrupt") + ".trace";
  {
    std::ofstream f(corrupt);
    f << "this is not a weft trace, not even close to one............"
         "............................................................";
  }
  for (const char *sub : {"summary", "export --chrome"}) {
    result r = run(std::string(WEFT_CLI) + " trace " + sub + " " + corrupt);
    EXPECT_NE(r.status, 0) << r.output;
    EXPECT_NE(r.output.find(corrupt), std::string::npos) << r.output;
  }
  std::remove(corrupt.c_str());
}

} // namespace
