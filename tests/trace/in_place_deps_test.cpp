// Tasks with dependences that the throttle runs in place keep their
// dependences in the trace: a chain of inout tasks on one address, spawned
// by a throttled creator at 1 thread (each task's predecessor has finished
// when it is spawned, so the engine says it is ready and it runs in place),
// traced, read back and built into the graph that `weft sim` replays. Every
// task of the chain names its dependence, and every one after the first
// depends on its predecessor (the serial meaning), in place or not. The
// same through the OpenMP front end (weft run, omp_in_place_chain.c).
#include "run_command.hpp"
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include <weft/weft.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace weft;

constexpr int kFill = 300;  // 0-dependence children: the creator is throttled
constexpr int kChain = 64;  // then the chain on g_y
constexpr int kAtOnce = 24; // of which those spawned through each API

long g_y;
std::vector<int> g_order;
std::vector<bool> g_in_place;

void fill(void *) {}

void link(void *arg) {
  int i = static_cast<int>(reinterpret_cast<intptr_t>(arg));
  g_order.push_back(i);
}

void link_copy(void *copy) { link(*static_cast<void **>(copy)); }

void link_args(void **args) { link(args[0]); }

std::string temp_path(const char *tag) {
  return testing::TempDir() + "weft_in_place_deps_" + tag + "_" +
         std::to_string(getpid()) + ".trace";
}

// Spawns the fill and the chain (link i through weft_spawn, weft_spawn_copy
// or weft_spawn_args in turn), traced at 1 thread under engine `engine`.
trace::trace_data record(const char *engine, const std::string &path) {
  g_order.clear();
  g_in_place.assign(kChain, false);
  setenv("WEFT_ENGINE", engine, 1);
  setenv("WEFT_THROTTLE_GRAIN", "fine", 1);
  setenv("WEFT_TRACE", path.c_str(), 1);
  EXPECT_EQ(weft_init(1), WEFT_OK) << weft_last_error();
  for (int i = 0; i < kFill; ++i)
    EXPECT_EQ(weft_spawn(fill, nullptr, nullptr, 0), WEFT_OK);
  for (int i = 0; i < kChain; ++i) {
    weft_dep d[] = {{&g_y, WEFT_INOUT}};
    void *arg = reinterpret_cast<void *>(static_cast<intptr_t>(i));
    weft_stats before{}, after{};
    EXPECT_EQ(weft_stats_get(&before), WEFT_OK);
    if (i / kAtOnce == 0) {
      EXPECT_EQ(weft_spawn(link, arg, d, 1), WEFT_OK);
    } else if (i / kAtOnce == 1) {
      EXPECT_EQ(weft_spawn_copy(link_copy, &arg, sizeof arg, d, 1, nullptr),
                WEFT_OK);
    } else {
      void *args[] = {arg, &g_y};
      weft_dep_mode types[] = {WEFT_VALUE, WEFT_INOUT};
      EXPECT_EQ(weft_spawn_args(link_args, 2, args, types), WEFT_OK);
    }
    // Run in place: counted undeferred (a spawn may also help, running
    // earlier tasks, which are not).
    EXPECT_EQ(weft_stats_get(&after), WEFT_OK);
    g_in_place[static_cast<std::size_t>(i)] =
        after.tasks_undeferred != before.tasks_undeferred;
  }
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
  EXPECT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");
  unsetenv("WEFT_THROTTLE_GRAIN");
  unsetenv("WEFT_ENGINE");
  return trace::read(path);
}

// The chain in graph g: the children of an implicit task (the native
// root, or the OpenMP single member) with a dependence, on addr, inout,
// each after the first depending on exactly its predecessor and beginning
// after it ended; `fill` children without dependences. Returns how many
// chain tasks began at their creation (run in place).
int check_chain(const trace::task_graph &g, uint64_t addr, int fill) {
  std::vector<uint32_t> chain;
  std::size_t fills = 0;
  for (uint32_t k = 0; k < g.tasks.size(); ++k) {
    const trace::task_node &n = g.tasks[k];
    if (n.parent == trace::kNone || (n.flags & trace::flag_implicit) ||
        !(g.tasks[n.parent].flags & trace::flag_implicit))
      continue; // not an explicit child of an implicit task
    if (n.ndeps == 0) {
      ++fills;
      continue;
    }
    EXPECT_EQ(n.ndeps, 1u) << "task " << n.id;
    const trace::dependence &d = g.deps[n.first_dep];
    EXPECT_EQ(d.address, addr) << "task " << n.id;
    EXPECT_EQ(static_cast<int>(d.mode), WEFT_INOUT) << "task " << n.id;
    chain.push_back(k);
  }
  EXPECT_EQ(fills, std::size_t(fill));
  EXPECT_EQ(chain.size(), std::size_t(kChain))
      << "tasks of the chain recorded without their dependence";
  int at_creation = 0;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const trace::task_node &n = g.tasks[chain[i]];
    at_creation += n.begin_ns == n.create_ns;
    EXPECT_EQ(n.npreds, i == 0 ? 0u : 1u) << "chain task " << i;
    if (i + 1 < chain.size()) {
      const uint32_t *s = g.succs.data() + n.first_succ;
      EXPECT_EQ(std::count(s, s + n.nsuccs, chain[i + 1]), 1)
          << "chain task " << i + 1 << " does not depend on task " << i;
    }
    // Causality in the merged order: a task with dependences begins after
    // its predecessor ended.
    if (i > 0) {
      EXPECT_GE(n.begin_ns, g.tasks[chain[i - 1]].end_ns) << "chain task " << i;
    }
  }
  return at_creation;
}

// Under the sw engine (whose ready_now answers for a task with
// dependences; nexus and picos defer such tasks here).
TEST(in_place_deps, ChainKeepsItsEdges) {
  std::string path = temp_path("sw");
  trace::trace_data t = record("sw", path);
  std::remove(path.c_str());
  // The program ran as its serial meaning, and most of the chain in place
  // (the path this test is about).
  ASSERT_EQ(g_order.size(), std::size_t(kChain));
  for (int i = 0; i < kChain; ++i)
    ASSERT_EQ(g_order[static_cast<std::size_t>(i)], i);
  int in_place =
      static_cast<int>(std::count(g_in_place.begin(), g_in_place.end(), true));
  EXPECT_GE(in_place, kChain / 2) << "too few chain tasks ran in place";
  // Each API's tasks among them.
  for (int a = 0; a * kAtOnce < kChain; ++a) {
    int n = 0;
    for (int i = a * kAtOnce; i < std::min(kChain, (a + 1) * kAtOnce); ++i)
      n += g_in_place[static_cast<std::size_t>(i)];
    EXPECT_GE(n, 1) << "no task of API " << a << " ran in place";
  }

  check_chain(trace::build_graph(t), reinterpret_cast<uint64_t>(&g_y), kFill);
}

// The OpenMP front end's throttled tasks (GOMP_task through
// run_now_instead): the same chain, traced under `weft run` at 1 thread.
TEST(in_place_deps, OpenMPChainKeepsItsEdges) {
  std::string path = temp_path("omp");
  trace_test::command_result r = trace_test::run_command(
      "WEFT_THROTTLE_GRAIN=fine " + std::string(WEFT_CLI) + " run --trace " +
      path + " --threads 1 -- " + OMP_IN_PLACE_CHAIN + " " +
      std::to_string(kFill) + " " + std::to_string(kChain));
  ASSERT_EQ(r.status, 0) << r.output;
  std::size_t at = r.output.find("y 0x");
  ASSERT_NE(at, std::string::npos) << r.output;
  uint64_t addr = std::stoull(r.output.substr(at + 2), nullptr, 16);
  trace::task_graph g = trace::build_graph(trace::read(path));
  std::remove(path.c_str());
  EXPECT_GE(check_chain(g, addr, kFill), kChain / 2)
      << "too few chain tasks ran in place";
}

} // namespace
