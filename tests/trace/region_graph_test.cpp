// Region programs in the task graph: the region tasks' dependence edges
// from their spawn records (rtask_spawn, rspawn_arg) with the regions'
// semantics, each region task's core task created by its spawner where the
// spawn was recorded, and clear errors on inconsistent region records.
#include "trace/read/trace_graph.hpp"

#include "trace_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace wt = weft::trace;
using weft::trace_test::trace_builder;
using wt::step_kind;

namespace {

constexpr uint8_t kIn = wt::region_arg_in, kOut = wt::region_arg_out,
                  kInout = kIn | kOut, kReg = wt::region_arg_region;

// Region task number k runs as core task 100 + k.
std::vector<uint64_t> pred_seqs(const wt::task_graph &g, uint64_t seq) {
  uint32_t me = g.index_of(100 + seq);
  std::vector<uint64_t> v;
  for (uint32_t k = 0; k < g.tasks.size(); ++k) {
    const wt::task_node &n = g.tasks[k];
    for (uint32_t s = 0; s < n.nsuccs; ++s)
      if (g.succs[n.first_succ + s] == me)
        v.push_back(n.id - 100);
  }
  std::sort(v.begin(), v.end());
  return v;
}

// Regions nested three deep under the root: A (1) > B (2) > C (3); object
// x in A, y in B, z in C. The main task (1) spawns region tasks 1-6, 8 and
// 9 in this order; task 6 spawns task 7. Cores are launched by the main
// task (107 by 106), as the runtime does once a task is ready.
trace_builder three_deep() {
  const uint64_t x = 0x1000, y = 0x2000, z = 0x3000;
  trace_builder b;
  b.root(0, 1, 0);
  b.region_new(0, 1, 1, 1, 0);
  b.region_new(0, 2, 1, 2, 1);
  b.region_new(0, 3, 1, 3, 2);
  b.rtask_spawn(0, 10, 1, 1, {{kInout | kReg, 3, 2}}); // inout C
  b.rtask_spawn(0, 11, 1, 2, {{kIn, z, 3}});           // in z
  b.rtask_spawn(0, 12, 1, 3, {{kOut, y, 2}});          // out y
  b.rtask_spawn(0, 13, 1, 4, {{kIn | kReg, 2, 1}});    // in B
  b.rtask_spawn(0, 14, 1, 5, {{kInout, x, 1}});        // inout x
  b.rtask_spawn(0, 15, 1, 6, {{kOut | kReg, 1, 0}});   // out A
  b.rtask_spawn(0, 16, 1, 8, {{kIn | kReg, 3, 2}});    // in C
  b.rtask_spawn(0, 17, 1, 9, {{kInout, y, 2}});        // inout y
  for (uint64_t k : {1, 2, 3, 4, 5, 6, 8, 9})
    b.create(0, 20 + k, 100 + k, 1);
  uint64_t t = 100;
  for (uint64_t k : {1, 2, 3, 4, 5, 6, 7, 8, 9}) {
    b.begin(1, t, 100 + k);
    b.rtask_run(1, t, 100 + k, k);
    if (k == 6) {
      b.rtask_spawn(1, t + 5, 106, 7, {{kInout, z, 3}}); // inout z
      b.create(1, t + 8, 107, 106);
    }
    b.end(1, t + 10, 100 + k);
    t += 11;
  }
  b.end(0, 300, 1);
  return b;
}

TEST(RegionGraph, ThreeDeepEdgesExactly) {
  trace_builder b = three_deep();
  wt::task_graph g = wt::build_graph(b.data());
  using v = std::vector<uint64_t>;
  EXPECT_EQ(pred_seqs(g, 1), v{});
  EXPECT_EQ(pred_seqs(g, 2), (v{1}));             // C written, z read
  EXPECT_EQ(pred_seqs(g, 3), v{});                // y is not in C
  EXPECT_EQ(pred_seqs(g, 4), (v{1, 3}));          // B covers C and y
  EXPECT_EQ(pred_seqs(g, 5), v{});                // x: nobody before
  EXPECT_EQ(pred_seqs(g, 6), (v{1, 2, 3, 4, 5})); // A covers everything
  EXPECT_EQ(pred_seqs(g, 7), (v{1, 2, 4}));       // not its parent 6
  EXPECT_EQ(pred_seqs(g, 8), (v{1, 6, 7}));       // 7, 6's child, wrote z
  EXPECT_EQ(pred_seqs(g, 9), (v{3, 4, 6}));
  // Every edge agrees with the recorded run.
  for (const wt::task_node &n : g.tasks)
    for (uint32_t s = 0; s < n.nsuccs; ++s)
      EXPECT_LE(n.end_ns, g.tasks[g.succs[n.first_succ + s]].begin_ns) << n.id;
}

TEST(RegionGraph, SpawnerCreatesTheCoreTask) {
  trace_builder b = three_deep();
  wt::task_graph g = wt::build_graph(b.data());
  // 107 was launched by 106 and spawned there: its parent; the others'
  // create steps are where the main task spawned them, in spawn order, and
  // not again where it launched them.
  EXPECT_EQ(g.tasks[g.index_of(107)].parent, g.index_of(106));
  const wt::task_node &main = g.tasks[g.index_of(1)];
  std::vector<uint64_t> created;
  for (uint32_t s = 0; s < main.nsteps; ++s) {
    const wt::step &st = g.steps[main.first_step + s];
    if (st.type == step_kind::create)
      created.push_back(g.tasks[st.value].id);
  }
  EXPECT_EQ(created,
            (std::vector<uint64_t>{101, 102, 103, 104, 105, 106, 108, 109}));
  const wt::task_node &six = g.tasks[g.index_of(106)];
  int creates = 0;
  for (uint32_t s = 0; s < six.nsteps; ++s)
    creates += g.steps[six.first_step + s].type == step_kind::create;
  EXPECT_EQ(creates, 1);
  for (uint64_t k = 1; k <= 9; ++k) {
    if (k != 7) {
      EXPECT_EQ(g.tasks[g.index_of(100 + k)].parent, g.index_of(1)) << k;
    }
  }
}

TEST(RegionGraph, InconsistentRegionRecords) {
  {
    trace_builder b; // a region task that never ran
    b.root(0, 1, 0);
    b.rtask_spawn(0, 10, 1, 1, {{kInout | kReg, 0, 0}});
    b.end(0, 20, 1);
    EXPECT_NE(graph_error(b).find(
                  "task 1: spawned region task number 1, which never ran"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b; // a run without a spawn
    b.root(0, 1, 0);
    b.create(0, 5, 2, 1);
    b.begin(1, 10, 2);
    b.rtask_run(1, 10, 2, 7);
    b.end(1, 12, 2);
    b.end(0, 20, 1);
    EXPECT_NE(graph_error(b).find("task 2: runs region task number 7, "
                                  "which has no rtask_spawn"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b; // an argument in a region never made
    b.root(0, 1, 0);
    b.rtask_spawn(0, 10, 1, 1, {{kIn, 0x10, 5}});
    b.create(0, 11, 2, 1);
    b.begin(1, 12, 2);
    b.rtask_run(1, 12, 2, 1);
    b.end(1, 13, 2);
    b.end(0, 20, 1);
    EXPECT_NE(graph_error(b).find("task 1: a region task argument in region "
                                  "5, which has no region_new"),
              std::string::npos)
        << graph_error(b);
  }
  {
    trace_builder b; // bad access bits
    b.root(0, 1, 0);
    b.rtask_spawn(0, 10, 1, 1, {{0x40, 0x10, 0}});
    b.end(0, 20, 1);
    EXPECT_NE(graph_error(b).find("task 1: region task argument 16 with "
                                  "access bits 64"),
              std::string::npos)
        << graph_error(b);
  }
}

} // namespace

namespace {
// The children a task's taskwait_on steps wait for, as region task
// numbers (core task 100 + k), one list per wait.
std::vector<std::vector<uint64_t>> waited(const wt::task_graph &g,
                                          uint64_t task) {
  const wt::task_node &n = g.tasks[g.index_of(task)];
  std::vector<std::vector<uint64_t>> v;
  for (uint32_t s = 0; s < n.nsteps; ++s) {
    const wt::step &st = g.steps[n.first_step + s];
    if (st.type == step_kind::taskwait) {
      v.push_back({999}); // a wait for all children
    } else if (st.type == step_kind::taskwait_on) {
      std::vector<uint64_t> w;
      for (uint32_t k = 0; k < st.count; ++k)
        w.push_back(g.tasks[g.waits[st.value + k]].id - 100);
      std::sort(w.begin(), w.end());
      v.push_back(w);
    }
  }
  return v;
}
} // namespace

// weft_wait (rwait, then a taskwait) waits only for the children spawned
// before it whose arguments overlap the waited ones, one of them writing:
// regions A (1) and B (2), x in A, y in B; tasks 1 (inout x), 2 (inout y),
// 3 (in A); wait (in A): task 1 only (3 reads); task 4 (out A); wait
// (inout y): task 2; wait (inout A): tasks 1, 3 and 4.
TEST(RegionGraph, WeftWaitWaitsForTheOverlappingChildrenOnly) {
  const uint64_t x = 0x1000, y = 0x2000;
  trace_builder b;
  b.root(0, 1, 0);
  b.region_new(0, 1, 1, 1, 0);
  b.region_new(0, 2, 1, 2, 0);
  b.rtask_spawn(0, 10, 1, 1, {{kInout, x, 1}});
  b.rtask_spawn(0, 11, 1, 2, {{kInout, y, 2}});
  b.rtask_spawn(0, 12, 1, 3, {{kIn | kReg, 1, 0}});
  b.create(0, 13, 101, 1);
  b.create(0, 13, 102, 1);
  b.rwait(0, 14, 1, {{kIn | kReg, 1, 0}});
  b.wait_begin(0, 15, 1, wt::wait_kind::taskwait);
  b.begin(1, 20, 101);
  b.rtask_run(1, 20, 101, 1);
  b.end(1, 30, 101);
  b.create(1, 30, 103, 1);
  b.begin(1, 31, 102);
  b.rtask_run(1, 31, 102, 2);
  b.end(1, 40, 102);
  b.wait_end(0, 41, 1, wt::wait_kind::taskwait);
  b.rtask_spawn(0, 42, 1, 4, {{kOut | kReg, 1, 0}});
  b.rwait(0, 43, 1, {{kInout, y, 2}});
  b.wait_begin(0, 44, 1, wt::wait_kind::taskwait);
  b.wait_end(0, 45, 1, wt::wait_kind::taskwait);
  b.rwait(0, 46, 1, {{kInout | kReg, 1, 0}});
  b.wait_begin(0, 47, 1, wt::wait_kind::taskwait);
  b.begin(1, 50, 103);
  b.rtask_run(1, 50, 103, 3);
  b.end(1, 60, 103);
  b.create(1, 60, 104, 1);
  b.begin(1, 61, 104);
  b.rtask_run(1, 61, 104, 4);
  b.end(1, 70, 104);
  b.wait_end(0, 71, 1, wt::wait_kind::taskwait);
  b.end(0, 80, 1);
  wt::task_graph g = wt::build_graph(b.data());
  using v = std::vector<std::vector<uint64_t>>;
  EXPECT_EQ(waited(g, 1), (v{{1}, {2}, {1, 3, 4}}));
  for (uint64_t k : {1, 2, 3})
    EXPECT_EQ(g.tasks[g.index_of(100 + k)].parent, g.index_of(1));
}

TEST(RegionGraph, RwaitWithoutItsWaitIsAnError) {
  trace_builder b;
  b.root(0, 1, 0);
  b.region_new(0, 1, 1, 1, 0);
  b.rwait(0, 2, 1, {{kIn | kReg, 1, 0}});
  b.end(0, 5, 1);
  EXPECT_EQ(graph_error(b), "trace: task 1: an rwait record without a "
                            "taskwait wait_begin after it");
}
