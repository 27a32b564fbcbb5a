// WEFT_DEBUG=waits: when no task finishes for WEFT_DEBUG_WAIT_SECONDS while a
// worker waits, weft prints what every worker waits for.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <unistd.h>

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

// The process's stderr (file descriptor 2) sent to a temporary file while
// it lives, readable meanwhile: the releaser waits for the report itself.
class StderrFile {
public:
  StderrFile() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = dup(2);
    if (file_ && saved_ >= 0)
      dup2(fileno(file_), 2);
  }
  ~StderrFile() { restore(); }
  bool ok() const { return file_ != nullptr && saved_ >= 0; }
  std::string text() const {
    std::string out;
    char buf[4096];
    ssize_t n;
    for (off_t at = 0; (n = pread(fileno(file_), buf, sizeof buf, at)) > 0;
         at += n)
      out.append(buf, static_cast<size_t>(n));
    return out;
  }
  // Back to the real stderr; returns what was written meanwhile.
  std::string restore() {
    if (saved_ < 0)
      return {};
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
    std::string t = text();
    std::fclose(file_);
    file_ = nullptr;
    return t;
  }

private:
  std::FILE *file_ = nullptr;
  int saved_ = -1;
};

// Releases the flag from a thread weft does not know once the watchdog has
// printed `what` (or wt::wait_seconds() went by: the test then fails on
// the missing report), not after a fixed time a loaded machine may exceed.
std::thread release_after_report(std::atomic<bool> &release,
                                 const StderrFile &err, std::string what) {
  return std::thread([&release, &err, what] {
    const auto deadline = std::chrono::steady_clock::now() + wt::wait_limit();
    while (err.text().find(what) == std::string::npos &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    release.store(true, std::memory_order_release);
  });
}

TEST_F(DebugWaits, ReportsABlockedTaskwait) {
  std::atomic<bool> release{false};
  StderrFile capture;
  ASSERT_TRUE(capture.ok()) << "stderr could not be redirected";
  ASSERT_EQ(weft_spawn(spin_until, &release, nullptr, 0), WEFT_OK);
  const std::string waiting =
      "(the thread's implicit task), 1 of 1 children unfinished";
  std::thread releaser = release_after_report(release, capture, waiting);
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
  releaser.join();
  std::string err = capture.restore();
  EXPECT_NE(err.find("no task finished for 0.2 s"), std::string::npos) << err;
  EXPECT_NE(err.find("worker 0: taskwait in task"), std::string::npos) << err;
  EXPECT_NE(err.find(waiting), std::string::npos) << err;
}

TEST_F(DebugWaits, ReportsTaskwaitOnWithItsAddress) {
  std::atomic<bool> release{false};
  int x = 0;
  StderrFile capture;
  ASSERT_TRUE(capture.ok()) << "stderr could not be redirected";
  weft_dep d{&x, WEFT_OUT};
  ASSERT_EQ(weft_spawn(spin_until, &release, &d, 1), WEFT_OK);
  char addr[32];
  std::snprintf(addr, sizeof addr, "address %p", static_cast<void *>(&x));
  std::thread releaser = release_after_report(release, capture, addr);
  EXPECT_EQ(weft_taskwait_on(&x), WEFT_OK);
  releaser.join();
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
  std::string err = capture.restore();
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
