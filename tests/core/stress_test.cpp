// Volume: many tiny tasks must all run exactly once (lost tasks, leaks,
// back-pressure). Sizes scale with WEFT_TEST_SCALE.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace {

void bump(void *p) {
  static_cast<std::atomic<long> *>(p)->fetch_add(1, std::memory_order_relaxed);
}

// 1e6 independent tiny tasks from the main thread, one taskwait.
TEST(Stress, MillionTinyTasks) {
  const long n = wt::scaled(1000000, 1000);
  std::atomic<long> count{0};
  weft_stats before{}, after{};
  ASSERT_EQ(weft_stats_get(&before), WEFT_OK);
  for (long i = 0; i < n; ++i)
    ASSERT_EQ(weft_spawn(bump, &count, nullptr, 0), WEFT_OK)
        << weft_last_error();
  WT_TASKWAIT();
  EXPECT_EQ(count.load(), n);
  ASSERT_EQ(weft_stats_get(&after), WEFT_OK);
  EXPECT_EQ(static_cast<long>(after.tasks_run - before.tasks_run), n);
  EXPECT_EQ(static_cast<long>(after.tasks_spawned - before.tasks_spawned), n);
}

// The same in rounds with a taskwait each (the runtime must recycle
// descriptors: a leak shows up as memory growth under ASan/LSan).
TEST(Stress, TinyTasksInRounds) {
  const long rounds = wt::scaled(1000, 10);
  std::atomic<long> count{0};
  for (long r = 0; r < rounds; ++r) {
    for (int i = 0; i < 1000; ++i)
      ASSERT_EQ(weft_spawn(bump, &count, nullptr, 0), WEFT_OK);
    WT_TASKWAIT();
    ASSERT_EQ(count.load(), (r + 1) * 1000) << "round " << r;
  }
}

// Tiny tasks spawned from inside tasks on every worker at once.
TEST(Stress, NestedFanOut) {
  const long parents = wt::scaled(1000, 20);
  std::atomic<long> count{0};
  std::atomic<int> bad_rc{0};
  for (long p = 0; p < parents; ++p)
    WT_SPAWN({}, [&] {
      for (int i = 0; i < 1000; ++i)
        if (weft_spawn(bump, &count, nullptr, 0) != WEFT_OK)
          bad_rc.fetch_add(1);
      if (weft_taskwait() != WEFT_OK)
        bad_rc.fetch_add(1);
    });
  WT_TASKWAIT();
  EXPECT_EQ(bad_rc.load(), 0);
  EXPECT_EQ(count.load(), parents * 1000);
}

// Many dependent tiny tasks: inout chains over 16 addresses, plus readers.
TEST(Stress, DependentTinyTasks) {
  const long n = wt::scaled(300000, 2000);
  struct alignas(64) Cell {
    long value = 0;
  };
  std::vector<Cell> cells(16);
  std::vector<long> expect(16, 0);
  std::atomic<long> reads{0};
  for (long i = 0; i < n; ++i) {
    size_t c = static_cast<size_t>((i * 2654435761L) >> 7) % 16;
    Cell *cell = &cells[c];
    if (i % 4 == 3) {
      WT_SPAWN({{cell, WEFT_IN}}, [cell, &reads] {
        if (cell->value >= 0)
          reads.fetch_add(1, std::memory_order_relaxed);
      });
    } else {
      expect[c] += 1;
      WT_SPAWN({{cell, WEFT_INOUT}}, [cell] { cell->value += 1; });
    }
  }
  WT_TASKWAIT();
  for (size_t c = 0; c < 16; ++c)
    EXPECT_EQ(cells[c].value, expect[c]) << "cell " << c;
  EXPECT_EQ(reads.load(), n / 4);
}

// Long chain on one address with a waiting parent (back-pressure on one
// dependence list).
TEST(Stress, OneLongChain) {
  const long n = wt::scaled(200000, 2000);
  long x = 0;
  for (long i = 0; i < n; ++i)
    WT_SPAWN({{&x, WEFT_INOUT}}, [&x, i] {
      if (x == i)
        x = i + 1;
    });
  WT_TASKWAIT();
  EXPECT_EQ(x, n);
}

// Many readers of one address, then one writer: the writer has a very long
// list of predecessors.
TEST(Stress, WideFanIn) {
  const long n = wt::scaled(100000, 1000);
  long x = 1;
  std::atomic<long> seen{0};
  long final_value = 0;
  for (long i = 0; i < n; ++i)
    WT_SPAWN({{&x, WEFT_IN}},
             [&] { seen.fetch_add(x, std::memory_order_relaxed); });
  WT_SPAWN({{&x, WEFT_OUT}}, [&] {
    final_value = seen.load();
    x = 2;
  });
  WT_TASKWAIT();
  EXPECT_EQ(final_value, n);
  EXPECT_EQ(x, 2);
}

} // namespace
