// The members' mailboxes (core/mailbox.hpp, runtime::spawn_to): a task sent
// to a member runs exactly once, on that member unless it stays busy past
// kMailPatienceNs; a letter to a sleeping member wakes it; letters left at
// shutdown run. At 1, 2 and 4 threads.
#include "core/mailbox.hpp"
#include "core/runtime.hpp"

#include "test_scale.hpp"

#include <gtest/gtest.h>
#include <weft/weft.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace weft {
namespace {

using clk = std::chrono::steady_clock;

// The FIFO itself, on made-up task addresses: order, growth past its first
// ring, and the stamp test of other members' takes.
TEST(Mailbox, FifoGrowsAndHonoursStamps) {
  mailbox m;
  EXPECT_FALSE(m.maybe_nonempty());
  EXPECT_EQ(m.take(), nullptr);
  alignas(64) static task fake[100];
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 100; ++i)
      m.put(&fake[i], uint64_t(1000 + i));
    for (int i = 0; i < 40; ++i)
      ASSERT_EQ(m.take(), &fake[i]) << i;
    // Stamped after 1039: the next (1040) is not old enough.
    EXPECT_EQ(m.take_if_stamped_by(1039), nullptr);
    EXPECT_EQ(m.take_if_stamped_by(1040), &fake[40]);
    for (int i = 41; i < 100; ++i)
      ASSERT_EQ(m.take_if_stamped_by(~uint64_t(0)), &fake[i]) << i;
    EXPECT_FALSE(m.maybe_nonempty());
    EXPECT_EQ(m.take_if_stamped_by(~uint64_t(0)), nullptr);
  }
  EXPECT_EQ(m.put_count(), 300u);
  EXPECT_EQ(m.taken_by_owner(), 120u);
  EXPECT_EQ(m.taken_by_others(), 180u);
}

// One mailed task: counts its runs and where it ran.
struct letter_rec {
  std::atomic<int> runs{0};
  std::atomic<int> ran_on{-1};
  std::atomic<long> started_ns{0};
  int target = 0;
  std::atomic<bool> *hold = nullptr; // spin while set (a busy owner)
  std::atomic<bool> *started = nullptr;
};

long now_ns() {
  return long(std::chrono::duration_cast<std::chrono::nanoseconds>(
                  clk::now().time_since_epoch())
                  .count());
}

void letter_body(void *arg) {
  auto *r = static_cast<letter_rec *>(arg);
  r->started_ns.store(now_ns());
  r->ran_on.store(weft_thread_id());
  if (r->started)
    r->started->store(true);
  if (r->hold) {
    auto deadline = clk::now() + std::chrono::seconds(10);
    while (r->hold->load() && clk::now() < deadline)
      std::this_thread::yield();
  }
  r->runs.fetch_add(1);
}

int send(letter_rec &r, int member) {
  worker &w = *tl_worker;
  task *t = w.alloc_task(letter_body, &r);
  int rc = g_runtime.load()->spawn_to(w, t, member);
  if (rc != WEFT_OK)
    w.free_task(t);
  return rc;
}

class MailboxTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    ASSERT_EQ(weft_init(GetParam()), WEFT_OK) << weft_last_error();
  }
  void TearDown() override {
    if (g_runtime.load()) {
      ASSERT_EQ(weft_shutdown(), WEFT_OK);
    }
  }
  static team &members() { return g_runtime.load()->initial_team(); }
  static uint64_t sum(uint64_t (mailbox::*f)() const) {
    uint64_t s = 0;
    for (int i = 0; i < members().size(); ++i)
      s += (members().slot(i).mail.*f)();
    return s;
  }
};

// Producer tasks (on any member) send bursts of letters to random members,
// pausing now and then so that members fall asleep. Every letter runs once
// (the serial meaning: each index counted once); the counts add up.
struct producer_arg {
  std::vector<std::unique_ptr<letter_rec>> *recs;
  int first, count;
  unsigned seed;
};

void producer_body(void *arg) {
  auto *p = static_cast<producer_arg *>(arg);
  std::mt19937 rng(p->seed);
  const int n = weft_num_threads();
  int i = 0, bursts = 0;
  while (i < p->count) {
    int burst = std::min(p->count - i, int(rng() % 16) + 1);
    for (int k = 0; k < burst; ++k, ++i) {
      letter_rec &r = *(*p->recs)[std::size_t(p->first + i)];
      r.target = int(rng() % unsigned(n));
      if (send(r, r.target) != WEFT_OK)
        std::abort();
    }
    if (rng() % 4 == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 400));
    // Below the spawn throttle (64 unfinished children per thread), which
    // would run letters in the producer instead of sending them.
    if (++bursts % 3 == 0)
      weft_taskwait();
  }
  weft_taskwait();
}

TEST_P(MailboxTest, ManyProducersEveryLetterRunsOnce) {
  const int producers = 3;
  const int per = std::max(50, int(1500 * test_scale()));
  const int total = producers * per;
  std::vector<std::unique_ptr<letter_rec>> recs;
  recs.resize(std::size_t(total));
  for (auto &r : recs)
    r = std::make_unique<letter_rec>();
  const uint64_t put0 = sum(&mailbox::put_count);
  const uint64_t own0 = sum(&mailbox::taken_by_owner);
  const uint64_t others0 = sum(&mailbox::taken_by_others);
  std::vector<producer_arg> args;
  for (int p = 0; p < producers; ++p)
    args.push_back({&recs, p * per, per, 77u + unsigned(p)});
  for (producer_arg &a : args)
    ASSERT_EQ(weft_spawn(producer_body, &a, nullptr, 0), WEFT_OK);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  int on_target = 0;
  for (int i = 0; i < total; ++i) {
    ASSERT_EQ(recs[std::size_t(i)]->runs.load(), 1) << "letter " << i;
    int on = recs[std::size_t(i)]->ran_on.load();
    ASSERT_TRUE(on >= 0 && on < GetParam()) << "letter " << i << ": " << on;
    on_target += on == recs[std::size_t(i)]->target;
  }
  EXPECT_EQ(sum(&mailbox::put_count) - put0, uint64_t(total));
  EXPECT_EQ(sum(&mailbox::taken_by_owner) - own0 +
                sum(&mailbox::taken_by_others) - others0,
            uint64_t(total));
  for (int i = 0; i < members().size(); ++i)
    EXPECT_FALSE(members().slot(i).mail.maybe_nonempty()) << "member " << i;
  // Letters taken by their owner ran there (others' takes are the rest;
  // throttling may also run a letter in its producer).
  EXPECT_GE(uint64_t(on_target), sum(&mailbox::taken_by_owner) - own0);
}

// Every other member asleep and the sender waiting outside the scheduler
// (it takes no task): the letter runs on its member only if sending woke it.
// Without the wake it would wait for ever; after wt::wait_seconds() (20 s)
// the test records the loss and takes the letter itself (a taskwait) so that it
// ends.
TEST_P(MailboxTest, LetterWakesItsSleepingMember) {
  const int n = GetParam();
  if (n == 1) {
    letter_rec r;
    ASSERT_EQ(send(r, 0), WEFT_OK);
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
    EXPECT_EQ(r.runs.load(), 1);
    EXPECT_EQ(r.ran_on.load(), 0);
    return;
  }
  for (int round = 0; round < 3; ++round) {
    const int target = 1 + round % (n - 1);
    auto deadline = clk::now() + wt::wait_limit();
    while (members().num_sleeping().load() != n - 1 && clk::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    ASSERT_EQ(members().num_sleeping().load(), n - 1)
        << "round " << round << ": the other members never slept";
    letter_rec r;
    ASSERT_EQ(send(r, target), WEFT_OK);
    deadline = clk::now() + wt::wait_limit();
    while (r.runs.load() == 0 && clk::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    const bool lost = r.runs.load() == 0;
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
    EXPECT_FALSE(lost) << "round " << round << ": a letter to sleeping member "
                       << target << " did not run within " << wt::wait_seconds()
                       << " s";
    EXPECT_EQ(r.runs.load(), 1);
    if (lost)
      break; // one failed round is enough (each waits wt::wait_seconds())
    EXPECT_EQ(r.ran_on.load(), target) << "round " << round;
  }
}

// A member busy in a long task: a letter to it is taken by another member,
// but only once it has waited kMailPatienceNs. (If others never took it, the
// busy task's 10 s limit would end the wait, and the test fail.)
TEST_P(MailboxTest, BusyMembersLetterGoesElsewhereAfterPatience) {
  const int n = GetParam();
  if (n == 1)
    GTEST_SKIP() << "needs another member";
  // The others asleep first: then only member 1, woken by its letter, can
  // take the busy task (the sender waits outside the scheduler).
  auto deadline = clk::now() + wt::wait_limit();
  while (members().num_sleeping().load() != n - 1 && clk::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  ASSERT_EQ(members().num_sleeping().load(), n - 1)
      << "the other members never slept";
  std::atomic<bool> hold{true}, started{false};
  letter_rec busy;
  busy.hold = &hold;
  busy.started = &started;
  ASSERT_EQ(send(busy, 1), WEFT_OK);
  deadline = clk::now() + wt::wait_limit();
  while (!started.load() && clk::now() < deadline)
    std::this_thread::yield();
  ASSERT_TRUE(started.load()) << "the busy task never started";
  letter_rec r;
  const long sent = now_ns();
  ASSERT_EQ(send(r, 1), WEFT_OK);
  tl_worker->wait_until([&] { return r.runs.load() == 1; });
  const bool still_busy = hold.load();
  hold.store(false);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  EXPECT_EQ(busy.ran_on.load(), 1);
  EXPECT_TRUE(still_busy) << "the letter ran only after its member was free";
  EXPECT_NE(r.ran_on.load(), 1);
  EXPECT_GE(r.started_ns.load() - sent, long(kMailPatienceNs))
      << "another member took the letter before its patience ran out";
}

// Letters still queued when the runtime stops run before it stops.
TEST_P(MailboxTest, ShutdownRunsQueuedLetters) {
  const int n = GetParam();
  const int total = 200;
  std::vector<std::unique_ptr<letter_rec>> recs(total);
  for (int i = 0; i < total; ++i) {
    recs[std::size_t(i)] = std::make_unique<letter_rec>();
    ASSERT_EQ(send(*recs[std::size_t(i)], i % n), WEFT_OK);
  }
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  for (int i = 0; i < total; ++i)
    ASSERT_EQ(recs[std::size_t(i)]->runs.load(), 1) << "letter " << i;
}

// A member outside the team: an error naming the call and the value.
TEST_P(MailboxTest, BadMemberIsNamed) {
  const int n = GetParam();
  for (int bad : {-1, n}) {
    letter_rec r;
    EXPECT_EQ(send(r, bad), WEFT_EINVAL);
    EXPECT_NE(std::string(weft_last_error())
                  .find("spawn_to: member " + std::to_string(bad) +
                        " is not in [0, " + std::to_string(n) + ")"),
              std::string::npos)
        << weft_last_error();
    EXPECT_EQ(r.runs.load(), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, MailboxTest, ::testing::Values(1, 2, 4),
                         [](const ::testing::TestParamInfo<int> &p) {
                           return "t" + std::to_string(p.param);
                         });

} // namespace
} // namespace weft
