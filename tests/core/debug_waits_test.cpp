// WEFT_DEBUG=waits: when no task finishes for WEFT_DEBUG_WAIT_SECONDS while a
// worker waits, weft prints what every worker waits for.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

// Restarts the runtime with WEFT_DEBUG=waits and a short period, and restores
// the plain runtime afterwards.
class DebugWaits : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    setenv("WEFT_DEBUG", "waits", 1);
    setenv("WEFT_DEBUG_WAIT_SECONDS", "0.2", 1);
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
  void TearDown() override {
    ASSERT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    unsetenv("WEFT_DEBUG");
    unsetenv("WEFT_DEBUG_WAIT_SECONDS");
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
};

void spin_until(void *arg) {
  auto *release = static_cast<std::atomic<bool> *>(arg);
  while (!release->load(std::memory_order_acquire))
    std::this_thread::yield();
}

// Releases the flag from a thread weft does not know, after the watchdog
// has had several periods to report.
std::thread release_later(std::atomic<bool> &release) {
  return std::thread([&release] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    release.store(true, std::memory_order_release);
  });
}

TEST_F(DebugWaits, ReportsABlockedTaskwait) {
  std::atomic<bool> release{false};
  testing::internal::CaptureStderr();
  ASSERT_EQ(weft_spawn(spin_until, &release, nullptr, 0), WEFT_OK);
  std::thread releaser = release_later(release);
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
  releaser.join();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("no task finished for 0.2 s"), std::string::npos) << err;
  EXPECT_NE(err.find("worker 0: taskwait in task"), std::string::npos) << err;
  EXPECT_NE(err.find("(the thread's implicit task), 1 of 1 children "
                     "unfinished"),
            std::string::npos)
      << err;
}

TEST_F(DebugWaits, ReportsTaskwaitOnWithItsAddress) {
  std::atomic<bool> release{false};
  int x = 0;
  testing::internal::CaptureStderr();
  weft_dep d{&x, WEFT_OUT};
  ASSERT_EQ(weft_spawn(spin_until, &release, &d, 1), WEFT_OK);
  std::thread releaser = release_later(release);
  EXPECT_EQ(weft_taskwait_on(&x), WEFT_OK);
  releaser.join();
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
  std::string err = testing::internal::GetCapturedStderr();
  char addr[32];
  std::snprintf(addr, sizeof addr, "address %p", static_cast<void *>(&x));
  EXPECT_NE(err.find("worker 0: taskwait on in task"), std::string::npos)
      << err;
  EXPECT_NE(err.find(addr), std::string::npos) << err;
}

TEST_F(DebugWaits, SilentWhileTasksFinish) {
  // Many short tasks over more than a period: progress, so no report.
  testing::internal::CaptureStderr();
  auto until =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
  while (std::chrono::steady_clock::now() < until) {
    for (int i = 0; i < 100; ++i)
      ASSERT_EQ(weft_spawn([](void *) {}, nullptr, nullptr, 0), WEFT_OK);
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
  }
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("no task finished"), std::string::npos) << err;
}

} // namespace
