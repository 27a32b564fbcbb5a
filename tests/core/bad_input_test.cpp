// Bad input: every rejected call returns its WEFT_E* code, weft_last_error()
// names the call and the offending value, and nothing runs.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>

namespace {

std::atomic<int> g_ran{0};

// Store an arbitrary int in an enum field, as a C caller may (C++ forbids
// converting values outside the enum's range, so no static_cast).
static_assert(sizeof(weft_dep_mode) == sizeof(int));
void set_mode(weft_dep_mode *field, int value) {
  std::memcpy(field, &value, sizeof value);
}
weft_dep dep_with_mode(const void *addr, int mode) {
  weft_dep d{addr, WEFT_IN};
  set_mode(&d.mode, mode);
  return d;
}
void count_run(void *) { g_ran.fetch_add(1); }
void count_run_args(void **) { g_ran.fetch_add(1); }

class BadInput : public ::testing::Test {
protected:
  void SetUp() override { g_ran = 0; }
  void TearDown() override {
    // Nothing a rejected call offered may ever run.
    EXPECT_EQ(weft_taskwait(), WEFT_OK);
    EXPECT_EQ(g_ran.load(), 0) << "a rejected spawn ran";
  }
  static std::string err() { return weft_last_error(); }
  static bool has(const std::string &m, const char *what) {
    return m.find(what) != std::string::npos;
  }
};

TEST_F(BadInput, SpawnNullFunction) {
  int x = 0;
  weft_dep d[] = {{&x, WEFT_IN}};
  EXPECT_EQ(weft_spawn(nullptr, &x, d, 1), WEFT_EINVAL);
  std::string m = err();
  EXPECT_TRUE(has(m, "weft_spawn")) << m;
  EXPECT_TRUE(wt::mentions_null(m) || has(m, "fn")) << m;
}

TEST_F(BadInput, SpawnNullDependenceAddress) {
  int x = 0;
  weft_dep d[] = {{&x, WEFT_IN}, {nullptr, WEFT_OUT}};
  EXPECT_EQ(weft_spawn(count_run, nullptr, d, 2), WEFT_EINVAL);
  std::string m = err();
  EXPECT_TRUE(has(m, "weft_spawn")) << m;
  EXPECT_TRUE(wt::mentions_null(m)) << m;
}

TEST_F(BadInput, SpawnNegativeNdeps) {
  int x = 0;
  weft_dep d[] = {{&x, WEFT_IN}};
  EXPECT_EQ(weft_spawn(count_run, nullptr, d, -3), WEFT_EINVAL);
  std::string m = err();
  EXPECT_TRUE(has(m, "weft_spawn")) << m;
  EXPECT_TRUE(has(m, "-3")) << m;
}

TEST_F(BadInput, SpawnNullDepsWithCount) {
  EXPECT_EQ(weft_spawn(count_run, nullptr, nullptr, 2), WEFT_EINVAL);
  std::string m = err();
  EXPECT_TRUE(has(m, "weft_spawn")) << m;
  EXPECT_TRUE(wt::mentions_null(m) || has(m, "deps")) << m;
}

TEST_F(BadInput, SpawnInvalidMode) {
  int x = 0;
  weft_dep d[] = {dep_with_mode(&x, 42)};
  EXPECT_EQ(weft_spawn(count_run, nullptr, d, 1), WEFT_EINVAL);
  std::string m = err();
  EXPECT_TRUE(has(m, "weft_spawn")) << m;
  EXPECT_TRUE(has(m, "42")) << m;
  weft_dep neg[] = {dep_with_mode(&x, -1)};
  EXPECT_EQ(weft_spawn(count_run, nullptr, neg, 1), WEFT_EINVAL);
  weft_dep six[] = {dep_with_mode(&x, 6)};
  EXPECT_EQ(weft_spawn(count_run, nullptr, six, 1), WEFT_EINVAL);
}

// WEFT_VALUE is for weft_spawn_args only: not a dependence mode.
TEST_F(BadInput, SpawnValueModeIsNotADependence) {
  int x = 0;
  weft_dep d[] = {{&x, WEFT_VALUE}};
  EXPECT_EQ(weft_spawn(count_run, nullptr, d, 1), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_spawn")) << err();
}

TEST_F(BadInput, SpawnCopyBadArguments) {
  int x = 0;
  weft_dep d[] = {{nullptr, WEFT_IN}};
  EXPECT_EQ(weft_spawn_copy(nullptr, &x, sizeof x, nullptr, 0, nullptr),
            WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_spawn_copy")) << err();
  EXPECT_EQ(weft_spawn_copy(count_run, &x, sizeof x, d, 1, nullptr),
            WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_spawn_copy")) << err();
  EXPECT_EQ(weft_spawn_copy(count_run, nullptr, 16, nullptr, 0, nullptr),
            WEFT_EINVAL)
      << "NULL arg with arg_size 16";
  EXPECT_EQ(weft_spawn_copy(count_run, &x, sizeof x, nullptr, -1, nullptr),
            WEFT_EINVAL);
  weft_task_attr attr{-1};
  EXPECT_EQ(weft_spawn_copy(count_run, &x, sizeof x, nullptr, 0, &attr),
            WEFT_EINVAL)
      << "negative priority";
  EXPECT_TRUE(has(err(), "-1")) << err();
}

TEST_F(BadInput, SpawnArgsBadArguments) {
  int x = 0;
  void *args[] = {&x};
  const weft_dep_mode types[] = {WEFT_IN};
  EXPECT_EQ(weft_spawn_args(count_run_args, -1, args, types), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_spawn_args")) << err();
  EXPECT_TRUE(has(err(), "-1")) << err();
  EXPECT_EQ(weft_spawn_args(count_run_args, 1, nullptr, types), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_spawn_args")) << err();
  EXPECT_EQ(weft_spawn_args(count_run_args, 1, args, nullptr), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_spawn_args")) << err();
  EXPECT_EQ(weft_spawn_args(nullptr, 1, args, types), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_spawn_args")) << err();
  weft_dep_mode bad_type[1];
  set_mode(&bad_type[0], 9);
  EXPECT_EQ(weft_spawn_args(count_run_args, 1, args, bad_type), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "9")) << err();
  // A NULL pointer tagged as a dependence is a NULL dependence address.
  void *null_args[] = {nullptr};
  EXPECT_EQ(weft_spawn_args(count_run_args, 1, null_args, types), WEFT_EINVAL);
  EXPECT_TRUE(wt::mentions_null(err())) << err();
}

// A NULL pointer passed as a WEFT_VALUE argument is just a value.
TEST(BadInputNot, SpawnArgsNullValueIsFine) {
  static std::atomic<int> ran{0};
  ran = 0;
  void *args[] = {nullptr};
  const weft_dep_mode types[] = {WEFT_VALUE};
  ASSERT_EQ(weft_spawn_args(
                [](void **v) {
                  if (v[0] == nullptr)
                    ran.fetch_add(1);
                },
                1, args, types),
            WEFT_OK)
      << weft_last_error();
  WT_TASKWAIT();
  EXPECT_EQ(ran.load(), 1);
}

TEST_F(BadInput, TaskgroupEndWithoutBegin) {
  EXPECT_EQ(weft_taskgroup_end(), WEFT_ESTATE);
  EXPECT_TRUE(has(err(), "weft_taskgroup_end")) << err();
  // Also inside a task, and after a balanced pair.
  std::atomic<int> rc{0};
  WT_SPAWN({}, [&] { rc = weft_taskgroup_end(); });
  WT_TASKWAIT();
  EXPECT_EQ(rc.load(), WEFT_ESTATE);
  ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
  ASSERT_EQ(weft_taskgroup_end(), WEFT_OK);
  EXPECT_EQ(weft_taskgroup_end(), WEFT_ESTATE);
}

// A task's taskgroup does not leak into its parent: a group begun by the
// parent cannot be ended by a child.
TEST_F(BadInput, TaskgroupEndInChildOfGroup) {
  ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
  std::atomic<int> rc{0};
  WT_SPAWN({}, [&] { rc = weft_taskgroup_end(); });
  ASSERT_EQ(weft_taskgroup_end(), WEFT_OK);
  EXPECT_EQ(rc.load(), WEFT_ESTATE);
}

TEST_F(BadInput, InitNegativeCount) {
  EXPECT_EQ(weft_init(-2), WEFT_EINVAL);
  std::string m = err();
  EXPECT_TRUE(has(m, "weft_init")) << m;
  EXPECT_TRUE(has(m, "-2")) << m;
  EXPECT_GE(weft_num_threads(), 1) << "the runtime was disturbed";
}

TEST_F(BadInput, TaskwaitOnNull) {
  EXPECT_EQ(weft_taskwait_on(nullptr), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_taskwait_on")) << err();
}

TEST_F(BadInput, TaskwaitDepsBad) {
  int x = 0;
  weft_dep d[] = {{nullptr, WEFT_IN}};
  EXPECT_EQ(weft_taskwait_deps(d, 1), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_taskwait_deps")) << err();
  weft_dep ok[] = {{&x, WEFT_IN}};
  EXPECT_EQ(weft_taskwait_deps(ok, -1), WEFT_EINVAL);
  EXPECT_EQ(weft_taskwait_deps(nullptr, 1), WEFT_EINVAL);
  weft_dep badmode[] = {dep_with_mode(&x, 77)};
  EXPECT_EQ(weft_taskwait_deps(badmode, 1), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "77")) << err();
}

TEST_F(BadInput, StatsNull) {
  EXPECT_EQ(weft_stats_get(nullptr), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_stats_get")) << err();
  EXPECT_EQ(weft_engine_counters(nullptr, 3), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "weft_engine_counters")) << err();
  weft_counter c[1];
  EXPECT_EQ(weft_engine_counters(c, -1), WEFT_EINVAL);
  EXPECT_TRUE(has(err(), "max=-1")) << err();
}

// A rejected spawn inside a task: the task carries on.
TEST_F(BadInput, RejectedSpawnInsideTask) {
  std::atomic<int> rc{0};
  std::string msg;
  WT_SPAWN({}, [&] {
    weft_dep d[] = {{nullptr, WEFT_IN}};
    rc = weft_spawn(count_run, nullptr, d, 1);
    msg = weft_last_error(); // per thread: read it on the same thread
  });
  WT_TASKWAIT();
  EXPECT_EQ(rc.load(), WEFT_EINVAL);
  EXPECT_TRUE(has(msg, "weft_spawn")) << msg;
}

// The C++ API throws std::invalid_argument carrying the message.
TEST_F(BadInput, CxxSpawnNullAddressThrows) {
  try {
    weft::spawn(weft::dep{nullptr, WEFT_IN}, [] { g_ran.fetch_add(1); });
    FAIL() << "no exception";
  } catch (const std::invalid_argument &e) {
    std::string m = e.what();
    EXPECT_TRUE(has(m, "spawn")) << m;
    EXPECT_TRUE(wt::mentions_null(m)) << m;
  }
}

TEST_F(BadInput, CxxSpawnInvalidModeThrows) {
  int x = 0;
  try {
    // 7 is inside the enum's value range (so valid C++) but no mode.
    weft::spawn(weft::dep{&x, static_cast<weft_dep_mode>(7)},
                [] { g_ran.fetch_add(1); });
    FAIL() << "no exception";
  } catch (const std::invalid_argument &e) {
    EXPECT_TRUE(has(e.what(), "7")) << e.what();
  }
}

TEST_F(BadInput, CxxSpawnNegativePriorityThrows) {
  try {
    weft::spawn(weft::priority{-5}, [] { g_ran.fetch_add(1); });
    FAIL() << "no exception";
  } catch (const std::invalid_argument &e) {
    EXPECT_TRUE(has(e.what(), "-5")) << e.what();
  }
}

TEST_F(BadInput, CxxTaskwaitOnGoodAfterBad) {
  // The runtime still works after all that.
  int x = 0;
  std::atomic<int> ok{0};
  weft::spawn(weft::out(x), [&] { ok.fetch_add(1); });
  weft::taskwait_on(x);
  EXPECT_EQ(ok.load(), 1);
}

} // namespace
