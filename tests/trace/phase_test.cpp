// Phase marks (weft_trace_phase_begin / _end, record kind `phase`) and the
// phase graph `weft sim --phase` replays: exactly the tasks created inside
// the phase with their descendants, their dependences on earlier tasks
// dropped; clear errors on a phase that is not in the trace, on
// inconsistent marks and on bad names.
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include "trace_builder.hpp"

#include <weft/weft.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace wt = weft::trace;
using weft::trace_test::graph_error;
using weft::trace_test::trace_builder;
using wt::phase_edge;
using wt::step_kind;

namespace {

constexpr uint8_t kInout = wt::region_arg_in | wt::region_arg_out,
                  kReg = wt::region_arg_region;
using deps = trace_builder::deps;
constexpr uint64_t kA = 0xa000;

std::vector<uint64_t> ids(const wt::task_graph &g) {
  std::vector<uint64_t> v;
  for (const wt::task_node &t : g.tasks)
    v.push_back(t.id);
  std::sort(v.begin(), v.end());
  return v;
}

// (pred id, succ id) of every edge.
std::vector<std::pair<uint64_t, uint64_t>> edges(const wt::task_graph &g) {
  std::vector<std::pair<uint64_t, uint64_t>> v;
  for (const wt::task_node &t : g.tasks)
    for (uint32_t s = 0; s < t.nsuccs; ++s)
      v.emplace_back(t.id, g.tasks[g.succs[t.first_succ + s]].id);
  std::sort(v.begin(), v.end());
  return v;
}

// Root 1 sets up: task 2 (out A), region 1, region task 1 (inout region 1,
// run by core 101), task 3. Then phase "timed": work, task 4 (in A: after
// 2), region task 2 (inout region 1: after region task 1, core 102), task
// 5 which creates task 6, a taskwait; the phase ends; task 7 (in A).
trace_builder setup_and_phase() {
  trace_builder b;
  b.root(0, 1, 0);
  b.create(0, 1, 2, 1, deps{{kA, wt::dep_mode::out}});
  b.region_new(0, 2, 1, 1, 0);
  b.rtask_spawn(0, 3, 1, 1, {{kInout | kReg, 1, 0}});
  b.create(0, 4, 101, 1);
  b.create(0, 5, 3, 1);
  b.run(1, 6, 20, 2);
  b.begin(1, 21, 101);
  b.rtask_run(1, 21, 101, 1);
  b.end(1, 30, 101);
  b.run(1, 31, 40, 3);
  b.phase(0, 50, 1, phase_edge::begin, "timed");
  b.create(0, 60, 4, 1, deps{{kA, wt::dep_mode::in}});
  b.rtask_spawn(0, 61, 1, 2, {{kInout | kReg, 1, 0}});
  b.create(0, 62, 5, 1);
  b.create(0, 63, 102, 1);
  b.wait_begin(0, 64, 1, wt::wait_kind::taskwait);
  b.run(1, 65, 70, 4);
  b.begin(1, 71, 5);
  b.create(1, 72, 6, 5);
  b.end(1, 73, 5);
  b.run(1, 74, 80, 6);
  b.begin(1, 81, 102);
  b.rtask_run(1, 81, 102, 2);
  b.end(1, 90, 102);
  b.wait_end(0, 91, 1, wt::wait_kind::taskwait);
  b.phase(0, 95, 1, phase_edge::end, "timed");
  b.create(0, 100, 7, 1, deps{{kA, wt::dep_mode::in}});
  b.run(1, 101, 110, 7);
  b.end(0, 200, 1);
  return b;
}

TEST(Phase, ReplaysExactlyTheTasksCreatedInside) {
  trace_builder b = setup_and_phase();
  wt::task_graph all = wt::build_graph(b.data());
  ASSERT_EQ(all.phases.size(), 1u);
  EXPECT_EQ(all.phases[0].name, "timed");
  EXPECT_EQ(all.phases[0].begin_ns, 50u);
  EXPECT_EQ(all.phases[0].end_ns, 95u);
  using e = std::vector<std::pair<uint64_t, uint64_t>>;
  // The whole program has the set-up's edges into the phase.
  EXPECT_EQ(edges(all), (e{{2, 4}, {2, 7}, {101, 102}}));

  wt::task_graph g = wt::select_phase(all, "timed");
  EXPECT_EQ(ids(g), (std::vector<uint64_t>{1, 4, 5, 6, 102}));
  EXPECT_EQ(edges(g), e{}); // 2 -> 4 and 101 -> 102: satisfied at the start
  for (const wt::task_node &t : g.tasks)
    EXPECT_EQ(t.npreds, 0u) << t.id;
  // The root keeps only its steps inside the phase: its work 50-64 between
  // the creates (the create the runtime recorded at 63, of the core task
  // that runs region task 2, is dropped: that task is created at its spawn,
  // 61, leaving two work steps side by side), the taskwait, the work 91-95;
  // task 5 keeps its child.
  const wt::task_node &root = g.tasks[g.index_of(1)];
  EXPECT_EQ(root.parent, wt::kNone);
  std::vector<step_kind> kinds;
  uint64_t work = 0;
  for (uint32_t s = 0; s < root.nsteps; ++s) {
    const wt::step &st = g.steps[root.first_step + s];
    kinds.push_back(st.type);
    if (st.type == step_kind::work)
      work += st.value;
    if (st.type == step_kind::create) {
      EXPECT_LT(st.value, g.tasks.size());
    }
  }
  using k = std::vector<step_kind>;
  EXPECT_EQ(kinds, (k{step_kind::work, step_kind::create, step_kind::work,
                      step_kind::create, step_kind::work, step_kind::create,
                      step_kind::work, step_kind::work, step_kind::taskwait,
                      step_kind::work}));
  EXPECT_EQ(work, 14u + 4); // 50-64 less nothing, 91-95
  const wt::task_node &t5 = g.tasks[g.index_of(5)];
  EXPECT_EQ(g.tasks[t5.parent].id, 1u);
  EXPECT_EQ(g.tasks[g.index_of(6)].parent, g.index_of(5));
  EXPECT_EQ(g.tasks[g.index_of(102)].parent, g.index_of(1));
}

TEST(Phase, UnknownNameIsAClearError) {
  trace_builder b = setup_and_phase();
  wt::task_graph all = wt::build_graph(b.data());
  try {
    wt::select_phase(all, "setup");
    FAIL() << "phase 'setup' was found";
  } catch (const wt::error &e) {
    EXPECT_EQ(std::string(e.what()),
              "trace: no phase 'setup' in the trace (its phases: 'timed')");
  }
  trace_builder none;
  none.root(0, 1, 0);
  none.end(0, 5, 1);
  try {
    wt::select_phase(wt::build_graph(none.data()), "timed");
    FAIL() << "a trace without phases had one";
  } catch (const wt::error &e) {
    EXPECT_NE(std::string(e.what()).find("no phase 'timed' in the trace (it "
                                         "marks no phase"),
              std::string::npos)
        << e.what();
  }
}

TEST(Phase, InconsistentMarksAreClearErrors) {
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.phase(0, 1, 1, phase_edge::end, "t");
    b.end(0, 5, 1);
    EXPECT_EQ(graph_error(b),
              "trace: task 1: ends phase 't', which is not open");
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.phase(0, 1, 1, phase_edge::begin, "t");
    b.end(0, 5, 1);
    EXPECT_EQ(graph_error(b), "trace: task 1: phase 't' never ended");
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.root(1, 2, 0);
    b.phase(0, 1, 1, phase_edge::begin, "t");
    b.phase(1, 2, 2, phase_edge::end, "t");
    b.end(0, 5, 1);
    b.end(1, 5, 2);
    EXPECT_EQ(graph_error(b), "trace: task 2: ends phase 't', begun by task 1");
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.phase(0, 1, 1, phase_edge::begin, "t");
    b.phase(0, 2, 1, phase_edge::end, "t");
    b.phase(0, 3, 1, phase_edge::begin, "t");
    b.phase(0, 4, 1, phase_edge::end, "t");
    b.end(0, 5, 1);
    EXPECT_EQ(graph_error(b),
              "trace: task 1: begins phase 't', which already ended");
  }
}

long g_x;
void leaf(void *) {
  volatile long s = 0;
  for (int i = 0; i < 1000; ++i)
    s = s + i;
}

// Recorded through the runtime: set-up task A (out x), then in the phase B
// (in x: after A) and C, a taskwait, then D after the phase.
TEST(Phase, RecordedPhaseHoldsItsTasks) {
  std::string path =
      testing::TempDir() + "weft_phase_" + std::to_string(getpid()) + ".trace";
  setenv("WEFT_TRACE", path.c_str(), 1);
  ASSERT_EQ(weft_init(2), WEFT_OK) << weft_last_error();
  weft_dep out[] = {{&g_x, WEFT_OUT}}, in[] = {{&g_x, WEFT_IN}};
  ASSERT_EQ(weft_spawn(leaf, nullptr, out, 1), WEFT_OK);
  ASSERT_EQ(weft_trace_phase_begin("measured"), WEFT_OK) << weft_last_error();
  ASSERT_EQ(weft_spawn(leaf, nullptr, in, 1), WEFT_OK);
  ASSERT_EQ(weft_spawn(leaf, nullptr, nullptr, 0), WEFT_OK);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  ASSERT_EQ(weft_trace_phase_end("measured"), WEFT_OK) << weft_last_error();
  ASSERT_EQ(weft_spawn(leaf, nullptr, nullptr, 0), WEFT_OK);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");
  wt::task_graph all = wt::build_graph(wt::read(path));
  std::remove(path.c_str());
  ASSERT_EQ(all.phases.size(), 1u);
  EXPECT_EQ(all.phases[0].name, "measured");
  wt::task_graph g = wt::select_phase(all, "measured");
  // The phase's task and its two children; the set-up task and the one
  // after are left out, and B's dependence on A is satisfied.
  ASSERT_EQ(g.tasks.size(), 3u);
  uint32_t root = all.phases[0].task;
  EXPECT_EQ(g.tasks[0].id, all.tasks[root].id);
  for (uint32_t k = 1; k < 3; ++k) {
    EXPECT_EQ(g.tasks[k].parent, 0u);
    EXPECT_EQ(g.tasks[k].npreds, 0u);
  }
  EXPECT_EQ(g.tasks[1].ndeps, 1u);
  // The whole trace has 5 tasks with the edge A -> B.
  uint32_t edges_all = 0;
  for (const wt::task_node &t : all.tasks)
    edges_all += t.nsuccs;
  EXPECT_EQ(edges_all, 1u);
}

TEST(Phase, BadNamesAreRefusedNamingTheCallAndTheValue) {
  ASSERT_EQ(weft_init(1), WEFT_OK) << weft_last_error();
  EXPECT_EQ(weft_trace_phase_begin(nullptr), WEFT_EINVAL);
  EXPECT_NE(std::string(weft_last_error())
                .find("weft_trace_phase_begin: name NULL is not 1-12"),
            std::string::npos)
      << weft_last_error();
  EXPECT_EQ(weft_trace_phase_begin(""), WEFT_EINVAL);
  EXPECT_NE(std::string(weft_last_error())
                .find("weft_trace_phase_begin: name '' is not"),
            std::string::npos)
      << weft_last_error();
  EXPECT_EQ(weft_trace_phase_end("thirteen_char"), WEFT_EINVAL);
  EXPECT_NE(std::string(weft_last_error())
                .find("weft_trace_phase_end: name 'thirteen_char' is not"),
            std::string::npos)
      << weft_last_error();
  EXPECT_EQ(weft_trace_phase_end("a b"), WEFT_EINVAL);
  EXPECT_EQ(weft_trace_phase_begin("twelve_chars"), WEFT_OK);
  EXPECT_EQ(weft_trace_phase_end("twelve_chars"), WEFT_OK);
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
}

} // namespace
