// The team inbox (core/inbox.hpp): jobs from threads outside the team run
// exactly once on its members, wake a sleeping team, and are all run before
// the runtime stops; at 1, 2 and 4 threads.
#include "core/inbox.hpp"
#include "core/runtime.hpp"

#include "test_scale.hpp"

#include <gtest/gtest.h>
#include <weft/weft.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace weft {
namespace {

struct counted_job : inbox_job {
  std::atomic<int> runs{0};
  std::atomic<int> *children = nullptr; // spawns two children when set
  std::atomic<int> *done = nullptr;
  int total = 0;
  bool on_worker = true;
};

void child_body(void *arg) {
  static_cast<std::atomic<int> *>(arg)->fetch_add(1);
}

void run_counted(inbox_job *self) {
  auto *j = static_cast<counted_job *>(self);
  j->on_worker = weft_thread_id() >= 0;
  j->runs.fetch_add(1, std::memory_order_relaxed);
  if (j->children) {
    weft_spawn(child_body, j->children, nullptr, 0);
    weft_spawn(child_body, j->children, nullptr, 0);
  }
  // j may be gone once done counts it: read it first.
  std::atomic<int> *done = j->done;
  const int total = j->total;
  if (done->fetch_add(1, std::memory_order_seq_cst) + 1 == total)
    g_runtime.load()->wake(0); // the test's main thread waits as worker 0
}

class InboxTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    ASSERT_EQ(weft_init(GetParam()), WEFT_OK) << weft_last_error();
  }
  void TearDown() override {
    if (g_runtime.load()) {
      ASSERT_EQ(weft_shutdown(), WEFT_OK);
    }
  }
  static inbox &box() { return g_runtime.load()->initial_team().external(); }
};

// Producers submit in bursts with pauses long enough for the workers to go
// to sleep; the main thread (worker 0) waits for the count. A lost wake-up
// hangs (CTest's TIMEOUT), a job run twice or never fails the counts.
TEST_P(InboxTest, ManyProducersEveryJobRunsOnce) {
  const int producers = 3;
  const int per = std::max(50, int(1500 * test_scale()));
  const int total = producers * per;
  std::vector<std::unique_ptr<counted_job>> jobs(total);
  std::atomic<int> done{0}, children{0};
  int with_children = 0;
  for (int i = 0; i < total; ++i) {
    jobs[i] = std::make_unique<counted_job>();
    jobs[i]->run = run_counted;
    jobs[i]->done = &done;
    jobs[i]->total = total;
    if (i % 4 == 0) {
      jobs[i]->children = &children;
      ++with_children;
    }
  }
  const std::uint64_t submitted0 = box().submitted();
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      std::mt19937 rng(1234 + p);
      int i = 0;
      while (i < per) {
        int burst = std::min(per - i, int(rng() % 16) + 1);
        for (int k = 0; k < burst; ++k, ++i)
          box().submit(jobs[p * per + i].get());
        if (rng() % 4 == 0)
          std::this_thread::sleep_for(std::chrono::microseconds(rng() % 400));
      }
    });
  tl_worker->wait_until(
      [&] { return done.load(std::memory_order_seq_cst) == total; });
  for (std::thread &t : threads)
    t.join();
  for (int i = 0; i < total; ++i) {
    ASSERT_EQ(jobs[i]->runs.load(), 1) << "job " << i;
    ASSERT_TRUE(jobs[i]->on_worker) << "job " << i;
  }
  EXPECT_EQ(box().submitted() - submitted0, std::uint64_t(total));
  EXPECT_EQ(box().taken(), box().submitted());
  EXPECT_FALSE(box().maybe_nonempty());
  // A job counts itself done before its children run (they are its task's,
  // not the main thread's: weft_taskwait here would not wait for them), so
  // the last jobs' children may still be running: the shutdown waits for
  // every task.
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  EXPECT_EQ(children.load(), 2 * with_children);
}

// Every member asleep (worker 0 too, in its wait): one submission must wake
// one of them. Without the wake the job would never run; the producer then
// records the failure (after wt::wait_seconds()) and wakes worker 0 itself
// so the test ends.
TEST_P(InboxTest, SubmissionWakesASleepingTeam) {
  const int n = weft_num_threads();
  team &t = g_runtime.load()->initial_team();
  for (int round = 0; round < 3; ++round) {
    std::atomic<int> done{0};
    counted_job j;
    j.run = run_counted;
    j.done = &done;
    j.total = 1;
    std::atomic<bool> lost{false}, all_slept{false};
    std::thread producer([&] {
      auto deadline = std::chrono::steady_clock::now() + wt::wait_limit();
      while (t.num_sleeping().load() != n &&
             std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      all_slept = t.num_sleeping().load() == n;
      box().submit(&j);
      deadline = std::chrono::steady_clock::now() + wt::wait_limit();
      while (done.load() == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      if (done.load() == 0) {
        lost = true;
        done.store(1, std::memory_order_seq_cst);
        g_runtime.load()->wake(0);
      }
    });
    tl_worker->wait_until(
        [&] { return done.load(std::memory_order_seq_cst) == 1; });
    producer.join();
    // The job may still be finishing on another member.
    while (j.runs.load() == 0 && !lost)
      std::this_thread::yield();
    EXPECT_TRUE(all_slept) << "round " << round << ": the team never slept";
    EXPECT_FALSE(lost) << "round " << round
                       << ": a job submitted to a sleeping team did not run "
                          "within "
                       << wt::wait_seconds() << " s";
    EXPECT_EQ(j.runs.load(), lost ? 0 : 1);
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
    while (box().taken() != box().submitted())
      std::this_thread::yield();
    // One failed round is enough (each waits up to wt::wait_seconds()).
    if (lost || !all_slept)
      break;
  }
}

// Jobs still queued when the runtime stops run before it stops.
TEST_P(InboxTest, ShutdownRunsQueuedJobs) {
  const int total = 200;
  std::atomic<int> done{0}, children{0};
  std::vector<std::unique_ptr<counted_job>> jobs(total);
  for (int i = 0; i < total; ++i) {
    jobs[i] = std::make_unique<counted_job>();
    jobs[i]->run = run_counted;
    jobs[i]->done = &done;
    jobs[i]->total = total + 1; // nobody to wake: the main thread shuts down
    jobs[i]->children = &children;
  }
  std::thread producer([&] {
    for (auto &j : jobs)
      box().submit(j.get());
  });
  producer.join();
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  EXPECT_EQ(done.load(), total);
  EXPECT_EQ(children.load(), 2 * total);
  for (int i = 0; i < total; ++i)
    ASSERT_EQ(jobs[i]->runs.load(), 1) << "job " << i;
}

INSTANTIATE_TEST_SUITE_P(Threads, InboxTest, ::testing::Values(1, 2, 4),
                         [](const ::testing::TestParamInfo<int> &p) {
                           return "t" + std::to_string(p.param);
                         });

} // namespace
} // namespace weft
