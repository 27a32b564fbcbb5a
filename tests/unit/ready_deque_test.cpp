// The Chase-Lev ready deque on its own: the owner's LIFO end, the thieves'
// FIFO end, growth, and a concurrent stress in which every task pushed is
// taken exactly once (by the owner's pops or by 1, 2 or 4 thieves).
#include "core/ready_deque.hpp"

#include "test_scale.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace weft {
namespace {

struct tasks {
  explicit tasks(std::size_t count) : v(new task[count]) {}
  task *at(std::size_t i) { return &v[i]; }
  std::size_t index(const task *t) const {
    return static_cast<std::size_t>(t - v.get());
  }
  std::unique_ptr<task[]> v;
};

TEST(ReadyDeque, EmptyGivesNothing) {
  ready_deque d(4);
  EXPECT_EQ(d.pop(), nullptr);
  EXPECT_EQ(d.steal(), nullptr);
  EXPECT_FALSE(d.maybe_nonempty());
  EXPECT_EQ(d.size_hint(), 0);
}

TEST(ReadyDeque, OwnerPopsNewestThiefStealsOldest) {
  tasks ts(3);
  ready_deque d(4);
  for (int i = 0; i < 3; ++i)
    d.push(ts.at(i));
  EXPECT_TRUE(d.maybe_nonempty());
  EXPECT_EQ(d.size_hint(), 3);
  EXPECT_EQ(d.steal(), ts.at(0));
  EXPECT_EQ(d.pop(), ts.at(2));
  EXPECT_EQ(d.pop(), ts.at(1)); // the last item: taken through the CAS
  EXPECT_EQ(d.pop(), nullptr);
  EXPECT_EQ(d.steal(), nullptr);
  // Usable again after running empty through both ends.
  d.push(ts.at(1));
  EXPECT_EQ(d.steal(), ts.at(1));
  EXPECT_EQ(d.pop(), nullptr);
}

TEST(ReadyDeque, GrowsAndKeepsOrder) {
  const std::size_t n = 1000;
  tasks ts(n);
  ready_deque d(2);
  for (std::size_t i = 0; i < n; ++i)
    d.push(ts.at(i));
  // Half from the top in push order, half from the bottom in reverse.
  for (std::size_t i = 0; i < n / 2; ++i)
    ASSERT_EQ(d.steal(), ts.at(i)) << i;
  for (std::size_t i = n; i > n / 2; --i)
    ASSERT_EQ(d.pop(), ts.at(i - 1)) << i;
  EXPECT_EQ(d.pop(), nullptr);
}

// The owner pushes bursts of random length and pops a random part of each;
// thieves steal all the time. Every task is taken exactly once, whatever the
// interleaving, and nothing is left behind.
void stress(int thieves, unsigned seed) {
  const std::size_t n = static_cast<std::size_t>(500000 * test_scale()) + 1000;
  tasks ts(n);
  std::vector<std::atomic<int>> taken(n);
  ready_deque d(8); // small, to grow while thieves read
  std::atomic<bool> done{false};
  std::atomic<std::size_t> stolen{0};

  std::vector<std::thread> th;
  for (int i = 0; i < thieves; ++i)
    th.emplace_back([&] {
      std::size_t mine = 0;
      for (;;) {
        bool finished = done.load(std::memory_order_acquire);
        if (task *t = d.steal()) {
          taken[ts.index(t)].fetch_add(1, std::memory_order_relaxed);
          ++mine;
        } else if (finished) {
          break;
        }
      }
      stolen.fetch_add(mine);
    });

  std::mt19937 rng(seed);
  std::size_t pushed = 0, popped = 0;
  while (pushed < n) {
    std::size_t burst = std::min<std::size_t>(1 + rng() % 64, n - pushed);
    for (std::size_t i = 0; i < burst; ++i)
      d.push(ts.at(pushed++));
    std::size_t pops = rng() % (burst + 1);
    for (std::size_t i = 0; i < pops; ++i)
      if (task *t = d.pop()) {
        taken[ts.index(t)].fetch_add(1, std::memory_order_relaxed);
        ++popped;
      }
  }
  while (task *t = d.pop()) {
    taken[ts.index(t)].fetch_add(1, std::memory_order_relaxed);
    ++popped;
  }
  done.store(true, std::memory_order_release);
  for (auto &t : th)
    t.join();

  EXPECT_EQ(popped + stolen.load(), n);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (taken[i].load() != 1 && wrong++ < 5)
      ADD_FAILURE() << "task " << i << " taken " << taken[i].load()
                    << " times (seed " << seed << ", " << thieves
                    << " thieves)";
  EXPECT_EQ(wrong, 0u);
}

TEST(ReadyDequeStress, EveryTaskTakenOnceOneThief) { stress(1, 1); }
TEST(ReadyDequeStress, EveryTaskTakenOnceTwoThieves) { stress(2, 2); }
TEST(ReadyDequeStress, EveryTaskTakenOnceFourThieves) { stress(4, 3); }

} // namespace
} // namespace weft
