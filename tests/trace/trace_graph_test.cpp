// The task graph of a trace: timelines with their work (overhead and nested
// tasks excluded), OpenMP dependence edges between siblings, regions, and
// clear errors naming the task on inconsistent traces.
#include "trace/read/trace_graph.hpp"
#include "trace/record/trace_writer.hpp"

#include "trace_builder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace wt = weft::trace;
using weft::trace_test::trace_builder;
using wt::dep_mode;
using wt::step_kind;

namespace {

std::vector<std::pair<step_kind, uint64_t>> steps_of(const wt::task_graph &g,
                                                     uint64_t id) {
  const wt::task_node &n = g.tasks[g.index_of(id)];
  std::vector<std::pair<step_kind, uint64_t>> v;
  for (uint32_t s = 0; s < n.nsteps; ++s) {
    const wt::step &st = g.steps[n.first_step + s];
    uint64_t value = st.value;
    if (st.type == step_kind::create)
      value = g.tasks[st.value].id; // ids read better than indices
    v.emplace_back(st.type, value);
  }
  return v;
}

std::vector<uint64_t> succ_ids(const wt::task_graph &g, uint64_t id) {
  const wt::task_node &n = g.tasks[g.index_of(id)];
  std::vector<uint64_t> v;
  for (uint32_t s = 0; s < n.nsuccs; ++s)
    v.push_back(g.tasks[g.succs[n.first_succ + s]].id);
  return v;
}

} // namespace

TEST(TraceGraph, TimelineWorkExcludesOverheadAndWaits) {
  trace_builder b;
  b.root(0, 1, 0);
  b.overhead(0, 90, 20, wt::overhead_kind::spawn, 2);
  b.create(0, 100, 2, 1);
  b.create(0, 200, 3, 1);
  b.wait_begin(0, 300, 1, wt::wait_kind::taskwait);
  b.run(1, 120, 170, 2);
  b.run(1, 210, 260, 3);
  b.wait_end(0, 310, 1, wt::wait_kind::taskwait);
  b.end(0, 400, 1);
  wt::task_graph g = wt::build_graph(b.data());
  ASSERT_EQ(g.tasks.size(), 3u);
  // 0..100 less the overhead's 90..100; 100..200 less 100..110; 310..400.
  std::vector<std::pair<step_kind, uint64_t>> want = {
      {step_kind::work, 90},  {step_kind::create, 2}, {step_kind::work, 90},
      {step_kind::create, 3}, {step_kind::work, 100}, {step_kind::taskwait, 0},
      {step_kind::work, 90}};
  EXPECT_EQ(steps_of(g, 1), want);
  EXPECT_EQ(steps_of(g, 2), (std::vector<std::pair<step_kind, uint64_t>>{
                                {step_kind::work, 50}}));
  const wt::task_node &c = g.tasks[g.index_of(3)];
  EXPECT_EQ(c.parent, g.index_of(1));
  EXPECT_EQ(c.creator_thread, 0);
  EXPECT_EQ(c.worker, 1);
  EXPECT_EQ(c.create_ns, 200u);
  EXPECT_EQ(c.begin_ns, 210u);
  EXPECT_EQ(c.end_ns, 260u);
  EXPECT_FALSE(g.idle_root(g.index_of(1)));
}

TEST(TraceGraph, NestedTaskOnTheSameThreadIsNotItsParentsWork) {
  trace_builder b;
  b.root(0, 1, 0);
  b.create(0, 100, 2, 1, {}, wt::flag_undeferred);
  b.run(0, 110, 150, 2);
  b.end(0, 200, 1);
  b.root(1, 9, 0); // a worker's placeholder
  b.end(1, 500, 9);
  wt::task_graph g = wt::build_graph(b.data());
  std::vector<std::pair<step_kind, uint64_t>> want = {
      {step_kind::work, 100}, {step_kind::create, 2}, {step_kind::work, 60}};
  EXPECT_EQ(steps_of(g, 1), want);
  EXPECT_EQ(g.tasks[g.index_of(2)].flags, wt::flag_undeferred);
  EXPECT_EQ(g.steps[g.tasks[g.index_of(2)].first_step].value, 40u);
  EXPECT_TRUE(g.idle_root(g.index_of(9)));
}

TEST(TraceGraph, DependenceEdgesFollowOpenMP) {
  trace_builder b;
  const uint64_t x = 0x100, y = 0x200;
  b.root(0, 1, 0);
  uint64_t t = 10;
  auto task = [&](uint64_t id, std::vector<std::pair<uint64_t, dep_mode>> d) {
    b.create(0, t, id, 1, std::move(d));
    b.run(1, t + 1, t + 2, id);
    t += 10;
  };
  task(2, {{x, dep_mode::out}});
  task(3, {{x, dep_mode::in}});
  task(4, {{x, dep_mode::in}, {y, dep_mode::in}});
  task(5, {{x, dep_mode::out}});
  task(6, {{x, dep_mode::inoutset}});
  task(7, {{x, dep_mode::inoutset}});
  task(8, {{x, dep_mode::in}});
  task(9, {{x, dep_mode::mutexinoutset}});
  task(10, {{x, dep_mode::in}, {x, dep_mode::out}, {y, dep_mode::inout}});
  b.wait_begin(0, t, 1, wt::wait_kind::taskwait_on, {{y, dep_mode::in}});
  b.wait_end(0, t + 1, 1, wt::wait_kind::taskwait_on);
  b.end(0, t + 5, 1);
  wt::task_graph g = wt::build_graph(b.data());
  using ids = std::vector<uint64_t>;
  EXPECT_EQ(succ_ids(g, 2), (ids{3, 4}));  // in after out
  EXPECT_EQ(succ_ids(g, 3), (ids{5}));     // out after the readers
  EXPECT_EQ(succ_ids(g, 4), (ids{5, 10})); // y: in, then inout
  EXPECT_EQ(succ_ids(g, 5), (ids{6, 7}));  // one inoutset group
  EXPECT_EQ(succ_ids(g, 6), (ids{8}));
  EXPECT_EQ(succ_ids(g, 7), (ids{8}));
  EXPECT_EQ(succ_ids(g, 8), (ids{9})); // mutexinoutset as inout
  EXPECT_EQ(succ_ids(g, 9), (ids{10}));
  EXPECT_EQ(g.tasks[g.index_of(10)].npreds, 2u); // 9 (x) and 4 (y), once each
  EXPECT_EQ(g.tasks[g.index_of(5)].npreds, 2u);
  EXPECT_EQ(g.tasks[g.index_of(10)].ndeps, 3u);
  const wt::task_node &r = g.tasks[g.index_of(1)];
  const wt::step &w = g.steps[r.first_step + r.nsteps - 2];
  ASSERT_EQ(w.type, step_kind::taskwait_on);
  ASSERT_EQ(w.count, 1u);
  EXPECT_EQ(g.tasks[g.waits[w.value]].id, 10u); // the last writer of y
}

TEST(TraceGraph, RegionsAndBarriers) {
  trace_builder b;
  b.root(0, 1, 0);
  b.region_begin(0, 10, 1, 2);
  b.create(0, 11, 2, 1, {}, wt::flag_implicit);
  b.create(0, 12, 3, 1, {}, wt::flag_implicit);
  b.begin(0, 13, 2);
  b.begin(1, 13, 3);
  b.wait_begin(0, 20, 2, wt::wait_kind::barrier);
  b.wait_begin(1, 30, 3, wt::wait_kind::barrier);
  b.wait_end(0, 31, 2, wt::wait_kind::barrier);
  b.wait_end(1, 31, 3, wt::wait_kind::barrier);
  b.end(0, 40, 2);
  b.end(1, 45, 3);
  b.region_end(0, 50, 1);
  b.end(0, 60, 1);
  wt::task_graph g = wt::build_graph(b.data());
  ASSERT_EQ(g.regions.size(), 1u);
  EXPECT_EQ(g.regions[0].size, 2u);
  EXPECT_EQ(g.tasks[g.index_of(3)].region, 0u);
  std::vector<std::pair<step_kind, uint64_t>> r = {
      {step_kind::work, 11},  {step_kind::create, 2}, {step_kind::work, 1},
      {step_kind::create, 3}, {step_kind::join, 0},   {step_kind::work, 10}};
  EXPECT_EQ(steps_of(g, 1), r);
  std::vector<std::pair<step_kind, uint64_t>> m = {
      {step_kind::work, 17}, {step_kind::barrier, 0}, {step_kind::work, 14}};
  EXPECT_EQ(steps_of(g, 3), m);
}

TEST(TraceGraph, InconsistentTracesNameTheTask) {
  {
    trace_builder b;
    b.begin(0, 5, 42);
    EXPECT_NE(graph_error(b).find("task 42: task_begin without a task_create"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 2, 7, 1);
    b.end(0, 3, 7);
    EXPECT_NE(graph_error(b).find("task 7: task_end without a task_begin"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 2, 7, 1);
    b.end(0, 9, 1);
    EXPECT_NE(graph_error(b).find("task 7: created but never began"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    EXPECT_NE(graph_error(b).find("task 1: began on thread 0 but never ended"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 2, 1, 0);
    EXPECT_NE(graph_error(b).find("task 1: created twice"), std::string::npos);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 2, 5, 1);
    b.begin(0, 3, 5);
    b.end(1, 4, 5);
    EXPECT_NE(
        graph_error(b).find("task 5: began on thread 0 and ended on thread 1"),
        std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.end(0, 2, 1);
    b.create(0, 3, 5, 1);
    EXPECT_NE(
        graph_error(b).find("task 5: created by task 1, which is not running"),
        std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 3, 5, 1, {}, wt::flag_implicit);
    EXPECT_NE(graph_error(b).find("task 5: implicit task created by task 1 "
                                  "outside a region_begin"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.wait_end(0, 3, 1, wt::wait_kind::taskwait);
    EXPECT_NE(graph_error(b).find("task 1: wait_end without a wait_begin"),
              std::string::npos)
        << graph_error(b);
  }
}
