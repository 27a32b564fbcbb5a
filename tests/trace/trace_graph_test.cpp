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

// On one thread, overhead segments lie outside task bodies and waits: a body
// or a wait may hold a whole segment, none may begin or end inside one
// (docs/trace-format.md, Overhead kinds). A file that breaks this is
// refused naming both, with their times.
TEST(TraceGraph, OverheadOverlappingABodyOrAWaitIsRefused) {
  // A spawn segment that a task run in place right after it begins inside
  // (an estimated segment too long for its thread).
  {
    trace_builder b = weft::trace_test::spawn_overlapping_a_body();
    EXPECT_EQ(graph_error(b),
              std::string("trace: ") + weft::trace_test::kSpawnOverlapsABody);
  }
  // A body that ends inside a segment begun in it.
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 10, 2, 1, {}, wt::flag_undeferred);
    b.begin(0, 50, 2);
    b.create(0, 100, 4, 2);
    b.overhead(0, 100, 200, wt::overhead_kind::spawn, 4);
    b.end(0, 200, 2);
    b.run(1, 400, 500, 4);
    b.end(0, 700, 1);
    EXPECT_EQ(graph_error(b),
              "trace: thread 0: task 4's spawn segment [100, 300] overlaps "
              "task 2's body [50, 200] (ns since the trace's start)");
  }
  // A whole body inside a schedule segment of no task.
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 10, 2, 1);
    b.wait_begin(0, 20, 1, wt::wait_kind::taskwait);
    b.overhead(1, 100, 100, wt::overhead_kind::schedule, 0);
    b.root(1, 9, 100);
    b.run(1, 120, 150, 2);
    b.end(1, 300, 9);
    b.wait_end(0, 400, 1, wt::wait_kind::taskwait);
    b.end(0, 500, 1);
    EXPECT_EQ(graph_error(b),
              "trace: thread 1: a schedule segment of no task [100, 200] "
              "overlaps task 2's body [120, 150] (ns since the trace's "
              "start)");
  }
  // A wait that begins inside its task's spawn segment.
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 100, 2, 1);
    b.overhead(0, 100, 200, wt::overhead_kind::spawn, 2);
    b.wait_begin(0, 250, 1, wt::wait_kind::taskwait);
    b.run(1, 260, 270, 2);
    b.wait_end(0, 500, 1, wt::wait_kind::taskwait);
    b.end(0, 600, 1);
    EXPECT_EQ(graph_error(b),
              "trace: thread 0: task 2's spawn segment [100, 300] overlaps "
              "task 1's wait [250, 500] (ns since the trace's start)");
  }
  // A wait that ends inside a segment begun in it.
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 100, 2, 1);
    b.wait_begin(0, 150, 1, wt::wait_kind::taskwait);
    b.run(1, 160, 170, 2);
    b.overhead(0, 200, 100, wt::overhead_kind::finish, 2);
    b.wait_end(0, 250, 1, wt::wait_kind::taskwait);
    b.end(0, 600, 1);
    EXPECT_EQ(graph_error(b),
              "trace: thread 0: task 2's finish segment [200, 300] overlaps "
              "task 1's wait [150, 250] (ns since the trace's start)");
  }
}

// What the format allows: a segment inside a body (a spawn in its
// creator's), a schedule segment ending where its task begins, a finish
// segment beginning where a body ended, and segments on another thread.
TEST(TraceGraph, OverheadSegmentsBetweenOrInsideBodiesAreAccepted) {
  trace_builder b;
  b.root(0, 1, 0);
  b.create(0, 100, 2, 1);
  b.overhead(0, 100, 50, wt::overhead_kind::spawn, 2);
  b.create(0, 150, 3, 1);
  b.overhead(0, 150, 50, wt::overhead_kind::spawn, 3);
  b.wait_begin(0, 200, 1, wt::wait_kind::taskwait);
  b.overhead(0, 200, 100, wt::overhead_kind::schedule, 2);
  b.run(0, 300, 400, 2);
  b.overhead(0, 400, 100, wt::overhead_kind::finish, 2);
  b.overhead(1, 150, 300, wt::overhead_kind::schedule, 3);
  b.root(1, 9, 100);
  b.run(1, 450, 500, 3);
  b.end(1, 600, 9);
  b.wait_end(0, 500, 1, wt::wait_kind::taskwait);
  b.end(0, 600, 1);
  EXPECT_EQ(graph_error(b), "");
  wt::task_graph g = wt::build_graph(b.data());
  // 0..100, then spawns until the wait at 200; 500..600 after it.
  std::vector<std::pair<step_kind, uint64_t>> want = {{step_kind::work, 100},
                                                      {step_kind::create, 2},
                                                      {step_kind::create, 3},
                                                      {step_kind::taskwait, 0},
                                                      {step_kind::work, 100}};
  EXPECT_EQ(steps_of(g, 1), want);
}

// A wait is recorded by its task's thread while the task is the innermost
// one running there.
TEST(TraceGraph, WaitsNestWithTheTasksOfTheirThread) {
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.root(1, 9, 0);
    b.wait_begin(1, 10, 1, wt::wait_kind::taskwait);
    EXPECT_EQ(graph_error(b), "trace: task 1: wait_begin on thread 1, but it "
                              "runs on thread 0");
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 10, 2, 1);
    b.wait_begin(0, 20, 1, wt::wait_kind::taskwait);
    b.begin(0, 30, 2);
    b.wait_end(0, 40, 1, wt::wait_kind::taskwait);
    b.end(0, 50, 2);
    b.end(0, 60, 1);
    EXPECT_EQ(graph_error(b), "trace: task 1: wait_end while task 2, begun "
                              "inside it on thread 0, has not ended");
  }
  {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 10, 2, 1, {}, wt::flag_undeferred);
    b.begin(0, 20, 2);
    b.wait_begin(0, 30, 1, wt::wait_kind::taskwait);
    EXPECT_EQ(graph_error(b), "trace: task 1: wait_begin while task 2, begun "
                              "inside it on thread 0, has not ended");
  }
}
