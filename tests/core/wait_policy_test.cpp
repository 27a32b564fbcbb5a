// WEFT_WAIT_POLICY (core/idle.hpp): how long an idle worker spins before it
// sleeps. Observed through the sleep counter (weft_stats.sleeps, counted by
// every worker that goes to sleep while it waits), with no timing
// assumption but these: an active worker spins for about 4 x 10^9 pauses,
// far longer than the gaps below; a default or passive one sleeps within a
// 10 s gap in which it has the CPU for more than a millisecond.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>

namespace {

using clock_type = std::chrono::steady_clock;

uint64_t sleeps() {
  weft_stats s{};
  EXPECT_EQ(weft_stats_get(&s), WEFT_OK) << weft_last_error();
  return s.sleeps;
}

struct Burst {
  std::atomic<long> ran{0};
};

void burst_task(void *arg) {
  auto *b = static_cast<Burst *>(arg);
  // A few microseconds each, so that other workers take some.
  const auto until = clock_type::now() + std::chrono::microseconds(5);
  while (clock_type::now() < until) {
  }
  b->ran.fetch_add(1, std::memory_order_relaxed);
}

class WaitPolicy : public ::testing::Test {
protected:
  void TearDown() override {
    unsetenv("WEFT_WAIT_POLICY");
    (void)weft_shutdown();
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
  // Restarts the runtime under WEFT_WAIT_POLICY=policy (nullptr: unset).
  void restart(const char *policy) {
    ASSERT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    if (policy)
      setenv("WEFT_WAIT_POLICY", policy, 1);
    else
      unsetenv("WEFT_WAIT_POLICY");
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
  // Tasks for every worker (pushed ones wake sleepers), then a taskwait.
  static void burst() {
    constexpr long kTasks = 256;
    Burst b;
    for (long i = 0; i < kTasks; ++i)
      ASSERT_EQ(weft_spawn(&burst_task, &b, nullptr, 0), WEFT_OK)
          << weft_last_error();
    ASSERT_EQ(weft_taskwait(), WEFT_OK) << weft_last_error();
    ASSERT_EQ(b.ran.load(), kTasks);
  }
  // The main thread works alone until the sleep counter passes before (or
  // 10 s go by); whether it did.
  static bool sleep_seen_in_gap(uint64_t before) {
    const auto until = clock_type::now() + std::chrono::seconds(10);
    while (clock_type::now() < until)
      if (sleeps() > before)
        return true;
    return false;
  }
  // After a burst, an idle worker of a team of more than one goes to sleep
  // while the main thread works alone.
  void expect_sleep_after_burst(const char *policy) {
    restart(policy);
    for (int round = 0; round < 3; ++round) {
      const uint64_t before = sleeps();
      burst();
      if (weft_num_threads() > 1) {
        EXPECT_TRUE(sleep_seen_in_gap(before))
            << "round " << round << ": no idle worker slept in a 10 s gap";
      }
    }
  }
};

TEST_F(WaitPolicy, PassiveWorkersSleepInAGap) {
  expect_sleep_after_burst("passive");
}

TEST_F(WaitPolicy, DefaultWorkersStillSleepInAGap) {
  expect_sleep_after_burst(nullptr);
}

// Active workers spin through bursts and 50 ms gaps of serial work: none
// sleeps from the start of the runtime on (under the default policy they
// sleep at start, with nothing to do, and in each gap).
TEST_F(WaitPolicy, ActiveWorkersDoNotSleepInShortGaps) {
  restart("active");
  const uint64_t at_start = sleeps();
  for (int round = 0; round < 3; ++round) {
    burst();
    const auto until = clock_type::now() + std::chrono::milliseconds(50);
    while (clock_type::now() < until) {
    }
    EXPECT_EQ(sleeps(), at_start) << "round " << round;
  }
  EXPECT_EQ(at_start, 0u) << "an active worker slept before any work";
}

// Values are exact (as WEFT_THROTTLE_GRAIN's): a wrong one fails weft_init
// naming the variable and the value.
TEST_F(WaitPolicy, UnknownValueIsReported) {
  for (const char *bad : {"lazy", "ACTIVE", "1"}) {
    ASSERT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    setenv("WEFT_WAIT_POLICY", bad, 1);
    EXPECT_EQ(weft_init(0), WEFT_EINVAL) << bad;
    const std::string err = weft_last_error();
    EXPECT_NE(err.find(std::string("WEFT_WAIT_POLICY=") + bad),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("active or passive"), std::string::npos) << err;
    unsetenv("WEFT_WAIT_POLICY");
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
}

} // namespace
