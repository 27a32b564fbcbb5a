// The runtime itself: thread count and ids, init/shutdown/re-init, statistics,
// calls from threads weft does not know.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

TEST(Runtime, NumThreadsFollowsEnvironment) {
  int expect = wt::expected_threads();
  if (expect <= 0)
    GTEST_SKIP() << "WEFT_NUM_THREADS not set";
  EXPECT_EQ(weft_num_threads(), expect);
}

TEST(Runtime, MainThreadIsWorkerZero) { EXPECT_EQ(weft_thread_id(), 0); }

TEST(Runtime, ThreadIdsInRange) {
  int n = weft_num_threads();
  ASSERT_GE(n, 1);
  std::atomic<int> bad{0};
  for (int i = 0; i < 500; ++i)
    WT_SPAWN({}, [&] {
      int id = weft_thread_id();
      if (id < 0 || id >= n)
        bad.fetch_add(1);
      wt::busy_work(1000);
    });
  WT_TASKWAIT();
  EXPECT_EQ(bad.load(), 0);
}

// Every worker runs tasks: n tasks meet, each on its own thread.
TEST(Runtime, AllThreadsRunTasksAtOnce) {
  int n = weft_num_threads();
  if (n < 2)
    GTEST_SKIP() << "needs at least 2 threads";
  bool conclusive = false;
  for (int attempt = 0; attempt < 10 && !conclusive; ++attempt) {
    wt::Guard spawning;
    wt::Rendezvous meet(n);
    std::atomic<int> skipped{0}, met{0};
    std::vector<std::atomic<int>> ids(static_cast<size_t>(n));
    for (auto &v : ids)
      v = -1;
    spawning.begin();
    for (int i = 0; i < n; ++i)
      WT_SPAWN({}, [&, i] {
        ids[static_cast<size_t>(i)] = weft_thread_id();
        if (spawning.on_guarded_thread()) {
          skipped.fetch_add(1);
          meet.arrived.fetch_add(1);
        } else if (meet.meet()) {
          met.fetch_add(1);
        }
      });
    spawning.end();
    WT_TASKWAIT();
    if (skipped.load() == 0) {
      conclusive = true;
      EXPECT_EQ(met.load(), n)
          << n << " tasks could not all run at once on " << n << " threads";
      std::set<int> distinct;
      for (auto &v : ids)
        distinct.insert(v.load());
      EXPECT_EQ(static_cast<int>(distinct.size()), n);
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "tasks ran inline at spawn: inconclusive";
}

TEST(Runtime, ForeignThreadHasNoId) {
  int id = 123;
  std::thread t([&] { id = weft_thread_id(); });
  t.join();
  EXPECT_EQ(id, -1);
}

TEST(Runtime, ForeignThreadCannotSpawnOrWait) {
  static std::atomic<int> ran{0};
  ran = 0;
  int spawn_rc = 0, wait_rc = 0;
  std::string msg;
  std::thread t([&] {
    spawn_rc =
        weft_spawn([](void *) { ran.fetch_add(1); }, nullptr, nullptr, 0);
    msg = weft_last_error();
    wait_rc = weft_taskwait();
  });
  t.join();
  WT_TASKWAIT();
  EXPECT_EQ(spawn_rc, WEFT_ETHREAD);
  EXPECT_EQ(wait_rc, WEFT_ETHREAD);
  EXPECT_NE(msg.find("weft_spawn"), std::string::npos) << msg;
  EXPECT_EQ(ran.load(), 0);
}

TEST(Runtime, InitWhileRunning) {
  int n = weft_num_threads();
  EXPECT_EQ(weft_init(n), WEFT_OK) << "same count again: " << weft_last_error();
  EXPECT_EQ(weft_init(n + 1), WEFT_ESTATE);
  std::string msg = weft_last_error();
  EXPECT_NE(msg.find("weft_init"), std::string::npos) << msg;
  EXPECT_EQ(weft_num_threads(), n);
}

void spawn_some_work(int n, std::atomic<int> *counter,
                     std::atomic<int> *bad_id) {
  int x = 0;
  for (int i = 0; i < 200; ++i)
    (void)wt::c_spawn({{&x, (i % 3) ? WEFT_IN : WEFT_INOUT}}, [=] {
      int id = weft_thread_id();
      if (id < 0 || id >= n)
        bad_id->fetch_add(1);
      (void)wt::c_spawn({}, [=] { counter->fetch_add(1); });
      (void)weft_taskwait();
      counter->fetch_add(1);
    });
  (void)weft_taskwait();
}

// Shut down and start again with other thread counts, several times.
TEST(Runtime, ShutdownAndReinitLoop) {
  const int counts[] = {1, 4, 2, 3, 1, 4};
  for (int round = 0; round < 3; ++round) {
    for (int n : counts) {
      ASSERT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
      ASSERT_EQ(weft_init(n), WEFT_OK)
          << "init(" << n << "): " << weft_last_error();
      ASSERT_EQ(weft_num_threads(), n);
      ASSERT_EQ(weft_thread_id(), 0);
      std::atomic<int> counter{0}, bad_id{0};
      spawn_some_work(n, &counter, &bad_id);
      EXPECT_EQ(counter.load(), 400) << "round " << round << " threads " << n;
      EXPECT_EQ(bad_id.load(), 0);
    }
  }
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  if (wt::expected_threads() > 0) {
    EXPECT_EQ(weft_num_threads(), wt::expected_threads());
  }
}

// weft_shutdown waits for every task, also those nobody waited for.
TEST(Runtime, ShutdownWaitsForPendingTasks) {
  static std::atomic<int> ran{0};
  ran = 0;
  for (int round = 0; round < 5; ++round) {
    ran = 0;
    for (int i = 0; i < 1000; ++i)
      WT_SPAWN({}, [] {
        wt::busy_work(100);
        (void)wt::c_spawn({}, [] { ran.fetch_add(1); });
        ran.fetch_add(1);
      });
    ASSERT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    EXPECT_EQ(ran.load(), 2000) << "round " << round;
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
}

// The first weft call starts the runtime (weft_init is optional).
TEST(Runtime, ImplicitStart) {
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  std::atomic<int> ran{0};
  WT_SPAWN({}, [&] { ran.fetch_add(1); });
  WT_TASKWAIT();
  EXPECT_EQ(ran.load(), 1);
  if (wt::expected_threads() > 0) {
    EXPECT_EQ(weft_num_threads(), wt::expected_threads());
  }
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  EXPECT_GE(weft_num_threads(), 1); // starts it again
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  ASSERT_EQ(weft_init(0), WEFT_OK);
}

TEST(Runtime, ShutdownInsideATaskIsRefused) {
  std::atomic<int> rc{0};
  WT_SPAWN({}, [&] { rc = weft_shutdown(); });
  WT_TASKWAIT();
  EXPECT_LT(rc.load(), 0) << "weft_shutdown from inside a task succeeded";
  // Still running.
  std::atomic<int> ran{0};
  WT_SPAWN({}, [&] { ran.fetch_add(1); });
  WT_TASKWAIT();
  EXPECT_EQ(ran.load(), 1);
}

TEST(Runtime, StatsCountTasksAndName) {
  weft_stats before{}, after{};
  ASSERT_EQ(weft_stats_get(&before), WEFT_OK) << weft_last_error();
  EXPECT_STREQ(before.engine, wt::engine_name())
      << "the engine named by WEFT_ENGINE is not the one running";
  int x = 0;
  for (int i = 0; i < 300; ++i)
    WT_SPAWN({{&x, WEFT_INOUT}}, [] {});
  WT_TASKWAIT();
  ASSERT_EQ(weft_stats_get(&after), WEFT_OK);
  EXPECT_GE(after.tasks_spawned - before.tasks_spawned, 300u);
  EXPECT_GE(after.tasks_run - before.tasks_run, 300u);
  // Dependences reach the engine unless the task ran undeferred.
  EXPECT_GT(after.deps_submitted - before.deps_submitted, 0u);
  EXPECT_LE(after.deps_submitted - before.deps_submitted, 300u);
  EXPECT_EQ(after.tasks_spawned, after.tasks_run) << "all spawned tasks ran";
  if (std::strcmp(after.engine, "sw") == 0) {
    EXPECT_EQ(after.modelled_cycles, 0u);
  } else {
    // A hardware model counts what the unit would have spent on them.
    EXPECT_GT(after.modelled_cycles, before.modelled_cycles);
  }
}

// The engines' own counters: named, distinct, and a hardware model's grow
// with the work it is given.
TEST(Runtime, EngineCountersNamedAndGrowing) {
  int n = weft_engine_counters(nullptr, 0);
  ASSERT_GE(n, 0) << weft_last_error();
  std::vector<weft_counter> before(static_cast<size_t>(n));
  ASSERT_EQ(weft_engine_counters(before.data(), n), n);
  std::set<std::string> names;
  for (const weft_counter &c : before) {
    ASSERT_NE(c.name, nullptr);
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate counter " << c.name;
  }
  int x = 0;
  for (int i = 0; i < 200; ++i)
    WT_SPAWN({{&x, WEFT_INOUT}}, [] {});
  WT_TASKWAIT();
  std::vector<weft_counter> after(static_cast<size_t>(n));
  ASSERT_EQ(weft_engine_counters(after.data(), n), n);
  uint64_t grown = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_STREQ(after[i].name, before[i].name);
    grown += after[i].value != before[i].value;
  }
  if (std::strcmp(wt::engine_name(), "sw") != 0) {
    EXPECT_GT(n, 0) << "a hardware model reports its counters";
    EXPECT_GT(grown, 0u);
  }
  // Fewer slots than counters: only max are written, the count is still n.
  if (n > 1) {
    weft_counter one[1] = {{nullptr, 0}};
    EXPECT_EQ(weft_engine_counters(one, 1), n);
    EXPECT_STREQ(one[0].name, after[0].name);
  }
}

} // namespace
