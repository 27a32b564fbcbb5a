// weft_spawn_copy (argument copied into the task), weft_spawn_args (the
// papers' in/out/inout/value arguments) and task priorities.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using wt::Span;

struct Report {
  std::atomic<int> ran{0};
  std::atomic<int> bad{0};
  std::atomic<const void *> seen_ptr{nullptr};
};

template <size_t N> struct Payload {
  Report *report;
  std::array<unsigned char, N> bytes;
};

template <size_t N> void check_payload(void *p) {
  Payload<N> copy;
  std::memcpy(&copy, p, sizeof copy); // no alignment assumption
  copy.report->seen_ptr.store(p);
  for (size_t i = 0; i < N; ++i)
    if (copy.bytes[i] != static_cast<unsigned char>(i * 7 + 3))
      copy.report->bad.fetch_add(1);
  copy.report->ran.fetch_add(1);
}

// The argument is copied at spawn: the task, held back by a slow
// predecessor, sees the original bytes although the caller overwrote them.
template <size_t N> void copy_test() {
  int x = 0;
  Report report;
  Payload<N> payload;
  payload.report = &report;
  for (size_t i = 0; i < N; ++i)
    payload.bytes[i] = static_cast<unsigned char>(i * 7 + 3);
  WT_SPAWN({{&x, WEFT_OUT}}, [] { wt::sleep_ms(10); });
  const weft_dep d[] = {{&x, WEFT_IN}};
  ASSERT_EQ(weft_spawn_copy(&check_payload<N>, &payload, sizeof payload, d, 1,
                            nullptr),
            WEFT_OK)
      << weft_last_error();
  std::memset(payload.bytes.data(), 0xEE, N); // mutate the original
  WT_TASKWAIT();
  EXPECT_EQ(report.ran.load(), 1) << "N=" << N;
  EXPECT_EQ(report.bad.load(), 0)
      << "the task saw the mutated original, N=" << N;
  EXPECT_NE(report.seen_ptr.load(), static_cast<const void *>(&payload))
      << "fn received the caller's pointer, not a copy";
}

TEST(SpawnCopy, CopiesSmallArgument) { copy_test<1>(); }
TEST(SpawnCopy, CopiesMediumArgument) { copy_test<40>(); }
TEST(SpawnCopy, CopiesLargeArgument) { copy_test<4096>(); }

TEST(SpawnCopy, ManyCopiesWithPriorities) {
  struct Arg {
    std::atomic<long> *sum;
    long value;
  };
  std::atomic<long> sum{0};
  long expect = 0;
  for (int i = 0; i < 2000; ++i) {
    Arg a{&sum, i};
    expect += i;
    weft_task_attr attr{i % 5};
    ASSERT_EQ(weft_spawn_copy(
                  [](void *p) {
                    Arg b;
                    std::memcpy(&b, p, sizeof b);
                    b.sum->fetch_add(b.value);
                  },
                  &a, sizeof a, nullptr, 0, (i % 2) ? &attr : nullptr),
              WEFT_OK)
        << weft_last_error();
  }
  WT_TASKWAIT();
  EXPECT_EQ(sum.load(), expect);
}

TEST(SpawnCopy, ZeroSizeArgument) {
  static std::atomic<int> ran{0};
  ran = 0;
  ASSERT_EQ(weft_spawn_copy([](void *) { ran.fetch_add(1); }, nullptr, 0,
                            nullptr, 0, nullptr),
            WEFT_OK)
      << weft_last_error();
  WT_TASKWAIT();
  EXPECT_EQ(ran.load(), 1);
}

// ---- weft_spawn_args -------------------------------------------------------

TEST(SpawnArgs, InOutInoutAndValueArguments) {
  for (int it = 0; it < 5; ++it) {
    static long a, b, c;
    a = b = c = 0;
    long two = 2;
    // t1: out a (slow)
    {
      void *args[] = {&a};
      const weft_dep_mode types[] = {WEFT_OUT};
      ASSERT_EQ(weft_spawn_args(
                    [](void **v) {
                      wt::sleep_ms(2);
                      *static_cast<long *>(v[0]) = 5;
                    },
                    1, args, types),
                WEFT_OK)
          << weft_last_error();
    }
    // t2: in a, out b
    {
      void *args[] = {&a, &b};
      const weft_dep_mode types[] = {WEFT_IN, WEFT_OUT};
      ASSERT_EQ(weft_spawn_args(
                    [](void **v) {
                      *static_cast<long *>(v[1]) =
                          *static_cast<long *>(v[0]) + 1;
                    },
                    2, args, types),
                WEFT_OK)
          << weft_last_error();
    }
    // t3: value (pointer passed through), inout b, out c
    {
      void *args[] = {&two, &b, &c};
      const weft_dep_mode types[] = {WEFT_VALUE, WEFT_INOUT, WEFT_OUT};
      ASSERT_EQ(weft_spawn_args(
                    [](void **v) {
                      long k = *static_cast<long *>(v[0]);
                      long *pb = static_cast<long *>(v[1]);
                      *pb *= k;
                      *static_cast<long *>(v[2]) = *pb + 100;
                    },
                    3, args, types),
                WEFT_OK)
          << weft_last_error();
    }
    WT_TASKWAIT(); // `two` lives on this stack frame until here
    EXPECT_EQ(a, 5);
    EXPECT_EQ(b, 12);
    EXPECT_EQ(c, 112);
  }
}

// The args array is copied at spawn: the caller may reuse it at once.
TEST(SpawnArgs, ArgsArrayIsCopied) {
  static int x;
  static long first, second;
  static std::atomic<void **> seen{nullptr};
  static std::atomic<int> ran{0};
  first = second = 0;
  ran = 0;
  WT_SPAWN({{&x, WEFT_OUT}}, [] { wt::sleep_ms(10); });
  void *args[] = {&x, &first};
  const weft_dep_mode types[] = {WEFT_IN, WEFT_VALUE};
  ASSERT_EQ(weft_spawn_args(
                [](void **v) {
                  seen.store(v);
                  *static_cast<long *>(v[1]) += 1;
                  ran.fetch_add(1);
                },
                2, args, types),
            WEFT_OK)
      << weft_last_error();
  args[1] = &second; // reuse the caller's array
  args[0] = nullptr;
  WT_TASKWAIT();
  EXPECT_EQ(ran.load(), 1);
  EXPECT_EQ(first, 1) << "the task used the caller's mutated args array";
  EXPECT_EQ(second, 0);
  EXPECT_NE(seen.load(), static_cast<void **>(args));
}

// inoutset and mutexinoutset arguments.
TEST(SpawnArgs, SetModes) {
  static long value;
  static std::atomic<int> active{0}, overlap{0}, set_sum{0};
  static long seen;
  value = 0;
  seen = -1;
  active = overlap = set_sum = 0;
  void *args[] = {&value};
  const weft_dep_mode out[] = {WEFT_OUT}, mset[] = {WEFT_MUTEXINOUTSET},
                      iset[] = {WEFT_INOUTSET}, in[] = {WEFT_IN};
  ASSERT_EQ(weft_spawn_args([](void **v) { *static_cast<long *>(v[0]) = 1; }, 1,
                            args, out),
            WEFT_OK);
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(weft_spawn_args(
                  [](void **v) {
                    if (active.fetch_add(1) != 0)
                      overlap.fetch_add(1);
                    wt::busy_work(3000);
                    *static_cast<long *>(v[0]) += 1;
                    active.fetch_sub(1);
                  },
                  1, args, mset),
              WEFT_OK);
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(
        weft_spawn_args([](void **) { set_sum.fetch_add(1); }, 1, args, iset),
        WEFT_OK);
  ASSERT_EQ(weft_spawn_args(
                [](void **v) {
                  seen = *static_cast<long *>(v[0]) * 100 + set_sum.load();
                },
                1, args, in),
            WEFT_OK);
  WT_TASKWAIT();
  EXPECT_EQ(overlap.load(), 0);
  EXPECT_EQ(seen, 9 * 100 + 8);
}

// ---- priorities
// --------------------------------------------------------------

TEST(Priority, TasksWithPriorityRun) {
  std::atomic<int> ran{0};
  for (int p = 0; p < 50; ++p) {
    weft::spawn(weft::priority{p % 7}, [&] { ran.fetch_add(1); });
    weft_task_attr attr{p};
    std::atomic<int> *target = &ran;
    ASSERT_EQ(weft_spawn_copy(
                  [](void *q) {
                    std::atomic<int> *r;
                    std::memcpy(&r, q, sizeof r);
                    r->fetch_add(1);
                  },
                  &target, sizeof target, nullptr, 0, &attr),
              WEFT_OK)
        << weft_last_error();
  }
  weft::taskwait();
  EXPECT_EQ(ran.load(), 100);
}

// Priorities never override dependences.
TEST(Priority, DependencesStillOrder) {
  for (int it = 0; it < 5; ++it) {
    int x = 0;
    Span low, high;
    int seen = -1;
    weft::spawn(weft::out(x), weft::priority{0}, [&] {
      low.begin();
      wt::sleep_ms(2);
      x = 1;
      low.end();
    });
    weft::spawn(weft::in(x), weft::priority{100}, [&] {
      high.begin();
      seen = x;
      high.end();
    });
    weft::taskwait();
    EXPECT_EQ(seen, 1);
    EXPECT_TRUE(low.before(high));
  }
}

// weft.h: "higher runs earlier when several tasks are ready". With one thread
// every task below is ready when the taskwait starts running them.
TEST(Priority, OneThreadRunsHigherPriorityFirst) {
  if (weft_num_threads() != 1)
    GTEST_SKIP() << "only meaningful with one thread";
  // The tiny configurations hold fewer than ten tasks: the spawner must run
  // some before it has made the others (back-pressure), so they are not
  // all ready together.
  if (std::getenv("WEFT_NEXUS_POOL") || std::getenv("WEFT_PICOS_TASK_MEMORY"))
    GTEST_SKIP() << "the engine's capacity is below ten tasks";
  std::vector<int> order;
  const int prios[] = {3, 0, 7, 1, 9, 4, 2, 8, 5, 6};
  for (int p : prios)
    weft::spawn(weft::priority{p}, [&order, p] { order.push_back(p); });
  weft::taskwait();
  ASSERT_EQ(order.size(), 10u);
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end(), std::greater<int>());
  EXPECT_EQ(order, sorted) << "ready tasks did not run in priority order";
}

} // namespace
