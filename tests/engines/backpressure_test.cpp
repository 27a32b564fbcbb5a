// A full engine applies back-pressure and never deadlocks (DESIGN.md), also
// when what would free it comes later in the creating task's own code: a
// child that waits for its creator (OpenMP's detached task, fulfilled after
// more tasks are created; here a child that waits for a flag the creator
// sets later). Nexus++ and Picos at tiny capacities, 2 and 4 threads.
// Before the backlog (worker::backlog_) both tests hung: the creator waited
// for every earlier child once the engine stayed full, and a taskwait the
// engine could not hold waited for every child.
#include <weft/weft.h>

#include <gtest/gtest.h>

#include "gate.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using env_list = std::vector<std::pair<const char *, const char *>>;

struct config {
  const char *name;
  env_list env;
};

const std::vector<config> &tiny_configs() {
  static const std::vector<config> c = {{"nexus_tiny",
                                         {{"WEFT_ENGINE", "nexus"},
                                          {"WEFT_NEXUS_POOL", "4"},
                                          {"WEFT_NEXUS_SETS", "1"},
                                          {"WEFT_NEXUS_FIFO", "1"}}},
                                        {"nexus_thread_tiny",
                                         {{"WEFT_ENGINE", "nexus"},
                                          {"WEFT_NEXUS_MODE", "thread"},
                                          {"WEFT_NEXUS_POOL", "4"},
                                          {"WEFT_NEXUS_SETS", "1"},
                                          {"WEFT_NEXUS_FIFO", "1"}}},
                                        {"picos_tiny",
                                         {{"WEFT_ENGINE", "picos"},
                                          {"WEFT_PICOS_TASK_MEMORY", "4"},
                                          {"WEFT_PICOS_DEP_MEMORY", "8"},
                                          {"WEFT_PICOS_VERSION_MEMORY", "8"},
                                          {"WEFT_PICOS_READY_QUEUE", "1"},
                                          {"WEFT_PICOS_CORE_QUEUE", "1"},
                                          {"WEFT_PICOS_FETCH_QUEUE", "1"}}}};
  return c;
}

// Starts the runtime with a configuration's variables; stops it at the end.
struct runtime_scope {
  const config &c;
  runtime_scope(const config &cfg, int threads) : c(cfg) {
    for (auto &[k, v] : c.env)
      setenv(k, v, 1);
    int rc = weft_init(threads);
    if (rc != WEFT_OK)
      ADD_FAILURE() << c.name << ": " << weft_last_error();
  }
  ~runtime_scope() {
    EXPECT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    for (auto &[k, v] : c.env)
      unsetenv(k);
  }
};

using weft_test::gate;
using weft_test::hold;
using weft_test::kPatience;

// Spawns hold(g) with deps and waits until another worker runs it (this
// thread runs no task meanwhile, so it cannot take the gate itself).
void spawn_gate(gate &g, const weft_dep *deps, int ndeps) {
  ASSERT_EQ(weft_spawn(hold, &g, deps, ndeps), WEFT_OK) << weft_last_error();
  auto until = std::chrono::steady_clock::now() + kPatience;
  while (!g.started.load() && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  ASSERT_TRUE(g.started.load()) << "no other worker took the gate task";
}

struct chain {
  std::atomic<int> next{0};
  std::atomic<int> errors{0};
  struct link {
    chain *c;
    int i;
  };
  std::vector<link> links;
};

void step(void *p) {
  auto *l = static_cast<chain::link *>(p);
  if (l->c->next.load() != l->i)
    l->c->errors.fetch_add(1);
  l->c->next.store(l->i + 1);
}

// The gate heads a chain on x longer than the engine holds; the creator
// releases it only after creating the whole chain.
TEST(FullEngine, CreatorGoesOnPastAChainHeldByALaterRelease) {
  for (const config &cfg : tiny_configs())
    for (int threads : {2, 4}) {
      SCOPED_TRACE(std::string(cfg.name) + " t" + std::to_string(threads));
      runtime_scope rt(cfg, threads);
      long x = 0;
      weft_dep d{&x, WEFT_INOUT};
      gate g;
      spawn_gate(g, &d, 1);
      constexpr int kLinks = 24;
      chain c;
      c.links.resize(kLinks);
      for (int i = 0; i < kLinks; ++i) {
        c.links[i] = {&c, i};
        ASSERT_EQ(weft_spawn(step, &c.links[i], &d, 1), WEFT_OK);
      }
      // Every link was created while the gate held its entry.
      EXPECT_EQ(c.next.load(), 0);
      g.release = true;
      ASSERT_EQ(weft_taskwait_deps(&d, 1), WEFT_OK) << weft_last_error();
      EXPECT_EQ(c.next.load(), kLinks);
      EXPECT_EQ(c.errors.load(), 0);
      EXPECT_FALSE(g.timed_out.load())
          << "the creator waited for the gate instead of going on";
      ASSERT_EQ(weft_taskwait(), WEFT_OK);
    }
}

void write_cell(void *p) {
  std::this_thread::sleep_for(std::chrono::microseconds(100));
  static_cast<std::atomic<int> *>(p)->store(1);
}

// A taskwait on more addresses than the engine holds waits for their
// writers only, not for the unrelated gate that the creator releases after
// the wait.
TEST(FullEngine, TaskwaitOnManyAddressesWaitsOnlyForThose) {
  constexpr int kCells = 16;
  for (const config &cfg : tiny_configs())
    for (int threads : {2, 4}) {
      SCOPED_TRACE(std::string(cfg.name) + " t" + std::to_string(threads));
      runtime_scope rt(cfg, threads);
      long y = 0;
      weft_dep dy{&y, WEFT_INOUT};
      gate g;
      spawn_gate(g, &dy, 1);
      std::atomic<int> cell[kCells] = {};
      std::vector<weft_dep> on;
      for (int i = 0; i < kCells; ++i) {
        weft_dep d{&cell[i], WEFT_OUT};
        ASSERT_EQ(weft_spawn(write_cell, &cell[i], &d, 1), WEFT_OK);
        on.push_back(weft_dep{&cell[i], WEFT_IN});
      }
      ASSERT_EQ(weft_taskwait_deps(on.data(), kCells), WEFT_OK)
          << weft_last_error();
      int written = 0;
      for (auto &c : cell)
        written += c.load();
      EXPECT_EQ(written, kCells);
      EXPECT_FALSE(g.timed_out.load())
          << "the taskwait waited for the unrelated gate";
      g.release = true;
      ASSERT_EQ(weft_taskwait(), WEFT_OK);
    }
}

} // namespace
