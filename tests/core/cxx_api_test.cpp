// The C++ API (weft.hpp): weft::spawn with dependences and lambdas,
// move-only closures, closures larger than a descriptor's inline space,
// closures destroyed exactly once, taskgroup, taskwait_on.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using wt::Span;

TEST(CxxApi, HeaderExample) {
  int a = 0, b = 0;
  weft::spawn(weft::out(a), [&] {
    wt::sleep_ms(1);
    a = 1;
  });
  weft::spawn(weft::in(a), weft::out(b), [&] { b = a + 1; });
  weft::taskwait();
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, 2);
}

TEST(CxxApi, AllModesAndPriority) {
  for (int it = 0; it < 5; ++it) {
    int x = 0, y = 0;
    std::atomic<int> set{0};
    long mutex_count = 0;
    int seen = -1;
    weft::spawn(weft::out(x), [&] {
      wt::sleep_ms(1);
      x = 3;
    });
    weft::spawn(weft::inout(x), weft::priority{2}, [&] { x *= 2; });
    for (int i = 0; i < 4; ++i)
      weft::spawn(weft::inoutset(x), [&] { set.fetch_add(1); });
    for (int i = 0; i < 4; ++i)
      weft::spawn(weft::mutexinoutset(x), [&] { mutex_count++; });
    weft::spawn(weft::in(x), weft::out(y), weft::priority{1}, [&] {
      y = x * 1000 + set.load() * 10 + static_cast<int>(mutex_count);
    });
    weft::spawn(weft::in(y), [&] { seen = y; });
    weft::taskwait();
    EXPECT_EQ(seen, 6 * 1000 + 40 + 4);
  }
}

// Dependences through weft::dep values built by hand.
TEST(CxxApi, HandBuiltDep) {
  int x = 0;
  int seen = -1;
  weft::spawn(weft::dep{&x, WEFT_OUT}, [&] {
    wt::sleep_ms(1);
    x = 9;
  });
  weft::spawn(weft::dep{&x, WEFT_IN}, [&] { seen = x; });
  weft::taskwait();
  EXPECT_EQ(seen, 9);
}

TEST(CxxApi, MoveOnlyClosure) {
  std::atomic<int> sum{0};
  for (int i = 0; i < 100; ++i) {
    auto p = std::make_unique<int>(i);
    weft::spawn([p = std::move(p), &sum] { sum.fetch_add(*p); });
  }
  weft::taskwait();
  EXPECT_EQ(sum.load(), 99 * 100 / 2);
}

// A named, non-copyable callable object (not a lambda).
struct MoveOnlyFunctor {
  std::unique_ptr<std::vector<int>> data;
  std::atomic<long> *out;
  MoveOnlyFunctor(std::unique_ptr<std::vector<int>> d, std::atomic<long> *o)
      : data(std::move(d)), out(o) {}
  MoveOnlyFunctor(MoveOnlyFunctor &&) = default;
  MoveOnlyFunctor(const MoveOnlyFunctor &) = delete;
  void operator()() {
    out->fetch_add(std::accumulate(data->begin(), data->end(), 0L));
  }
};

TEST(CxxApi, MoveOnlyFunctorObject) {
  std::atomic<long> total{0};
  for (int i = 0; i < 20; ++i)
    weft::spawn(
        MoveOnlyFunctor(std::make_unique<std::vector<int>>(100, i), &total));
  weft::taskwait();
  EXPECT_EQ(total.load(), 100L * (19 * 20 / 2));
}

template <size_t N> void big_closure_test() {
  std::atomic<int> bad{0}, ran{0};
  for (int t = 0; t < 20; ++t) {
    std::array<std::uint8_t, N> blob;
    for (size_t i = 0; i < N; ++i)
      blob[i] = static_cast<std::uint8_t>(i * 31 + static_cast<size_t>(t));
    weft::spawn([blob, t, &bad, &ran] {
      for (size_t i = 0; i < N; ++i)
        if (blob[i] !=
            static_cast<std::uint8_t>(i * 31 + static_cast<size_t>(t)))
          bad.fetch_add(1);
      ran.fetch_add(1);
    });
    blob.fill(0); // the task owns its own copy
  }
  weft::taskwait();
  EXPECT_EQ(ran.load(), 20);
  EXPECT_EQ(bad.load(), 0) << "closure of " << N << " bytes corrupted";
}

TEST(CxxApi, ClosureOf65Bytes) { big_closure_test<65>(); }
TEST(CxxApi, ClosureOf200Bytes) { big_closure_test<200>(); }
TEST(CxxApi, ClosureOf4KiB) { big_closure_test<4096>(); }

TEST(CxxApi, OverAlignedClosureUpTo16) {
  struct alignas(16) Wide {
    double v[4];
  };
  std::atomic<int> misaligned{0}, bad{0};
  for (int i = 0; i < 50; ++i) {
    Wide w{{1.0 * i, 2.0, 3.0, 4.0}};
    weft::spawn([w, i, &misaligned, &bad] {
      if (reinterpret_cast<std::uintptr_t>(&w) % 16 != 0)
        misaligned.fetch_add(1);
      if (w.v[0] != 1.0 * i || w.v[3] != 4.0)
        bad.fetch_add(1);
    });
  }
  weft::taskwait();
  EXPECT_EQ(misaligned.load(), 0);
  EXPECT_EQ(bad.load(), 0);
}

// Every closure object (and every copy/move of it) is destroyed exactly once.
struct Tracker {
  static std::atomic<long> live;
  static std::atomic<long> destroyed_twice;
  std::uint64_t magic = 0x5AFEC0DEu;
  Tracker() { live.fetch_add(1); }
  Tracker(const Tracker &o) : magic(o.magic) { live.fetch_add(1); }
  Tracker(Tracker &&o) noexcept : magic(o.magic) { live.fetch_add(1); }
  ~Tracker() {
    if (magic != 0x5AFEC0DEu)
      destroyed_twice.fetch_add(1);
    magic = 0xDEADu;
    live.fetch_sub(1);
  }
};
std::atomic<long> Tracker::live{0};
std::atomic<long> Tracker::destroyed_twice{0};

TEST(CxxApi, ClosuresDestroyedExactlyOnce) {
  Tracker::live = 0;
  Tracker::destroyed_twice = 0;
  std::atomic<int> calls{0};
  std::array<char, 100> pad{}; // also a closure too big to fit inline
  {
    int x = 0;
    for (int i = 0; i < 200; ++i) {
      if (i % 2)
        weft::spawn(weft::inout(x), [t = Tracker(), &calls] {
          calls.fetch_add(1);
          (void)t;
        });
      else
        weft::spawn([t = Tracker(), pad, &calls] {
          calls.fetch_add(1);
          (void)t;
          (void)pad;
        });
      Tracker lvalue;
      weft::spawn([lvalue, &calls] {
        calls.fetch_add(1);
        (void)lvalue;
      });
    }
    weft::taskwait();
  }
  EXPECT_EQ(calls.load(), 400);
  EXPECT_EQ(Tracker::live.load(), 0) << "closures leaked or destroyed twice";
  EXPECT_EQ(Tracker::destroyed_twice.load(), 0);
}

// A parent far past the throttle limit (64 unfinished children per thread)
// has new tasks run in place, before any descriptor exists, through both
// APIs: every task runs exactly once, in order with its dependences, every
// closure is destroyed once, an exception thrown by a task run in place
// surfaces at taskwait, and the statistics count such tasks as spawned, run
// and undeferred. At 1 thread nobody else drains the queue, so in-place runs
// must happen there.
void count_one(void *p) { static_cast<std::atomic<int> *>(p)->fetch_add(1); }

TEST(CxxApi, ThrottledSpawnsRunInPlace) {
  constexpr int kTasks = 5000;
  Tracker::live = 0;
  Tracker::destroyed_twice = 0;
  weft_stats before{}, after{};
  ASSERT_EQ(weft_stats_get(&before), WEFT_OK);
  std::atomic<int> c_calls{0}, cxx_calls{0};
  long chain = 0;
  for (int i = 0; i < kTasks; ++i) {
    ASSERT_EQ(weft_spawn(count_one, &c_calls, nullptr, 0), WEFT_OK);
    weft::spawn([t = Tracker(), &cxx_calls] {
      cxx_calls.fetch_add(1);
      (void)t;
    });
    weft::spawn(weft::inout(chain), [&chain, i] {
      // In spawn order: each task sees the count its predecessors left.
      chain = chain == i ? chain + 1 : -1000000;
    });
  }
  weft::taskwait();
  ASSERT_EQ(weft_stats_get(&after), WEFT_OK);
  EXPECT_EQ(c_calls.load(), kTasks);
  EXPECT_EQ(cxx_calls.load(), kTasks);
  EXPECT_EQ(chain, kTasks) << "a task ran out of dependence order";
  EXPECT_EQ(Tracker::live.load(), 0) << "closures leaked or destroyed twice";
  EXPECT_EQ(Tracker::destroyed_twice.load(), 0);
  EXPECT_GE(after.tasks_spawned - before.tasks_spawned, 3u * kTasks);
  EXPECT_EQ(after.tasks_spawned - before.tasks_spawned,
            after.tasks_run - before.tasks_run);
  // Engines that cannot tell at once that a task is ready (the models
  // answer ready_now false) never run tasks in place.
  if (weft::num_threads() == 1 && std::strcmp(after.engine, "sw") == 0) {
    EXPECT_GT(after.tasks_undeferred - before.tasks_undeferred, 0u)
        << "a lone thread past the throttle limit should run tasks in place";
  }

  // The last of many tasks throws; at 1 thread it runs in place.
  std::atomic<int> ran{0};
  for (int i = 0; i < kTasks; ++i)
    weft::spawn([i, &ran] {
      ran.fetch_add(1);
      if (i == kTasks - 1)
        throw std::runtime_error("thrown by the last task");
    });
  try {
    weft::taskwait();
    ADD_FAILURE() << "taskwait did not rethrow the task's exception";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "thrown by the last task");
  }
  EXPECT_EQ(ran.load(), kTasks);
}

// The closure is destroyed when the task has run, also when nobody waits (the
// task's captured resources are released by the runtime, not at taskwait).
TEST(CxxApi, ClosureDestroyedAfterRunning) {
  auto shared = std::make_shared<int>(5);
  std::weak_ptr<int> weak = shared;
  std::atomic<int> ran{0};
  weft::spawn([s = std::move(shared), &ran] { ran.fetch_add(*s); });
  weft::taskwait();
  EXPECT_EQ(ran.load(), 5);
  EXPECT_TRUE(weak.expired()) << "the closure outlived the task";
}

TEST(CxxApi, Taskgroup) {
  std::atomic<int> n{0};
  weft::taskgroup([&] {
    for (int i = 0; i < 10; ++i)
      weft::spawn([&] {
        weft::spawn([&] {
          wt::sleep_ms(1);
          n.fetch_add(1);
        });
        n.fetch_add(1);
      });
  });
  EXPECT_EQ(n.load(), 20);
}

TEST(CxxApi, TaskwaitOn) {
  int x = 0, y = 0;
  std::atomic<bool> x_done{false};
  weft::spawn(weft::out(x), [&] {
    wt::sleep_ms(2);
    x = 1;
    x_done = true;
  });
  weft::spawn(weft::out(y), [&] { y = 1; });
  weft::taskwait_on(x);
  EXPECT_TRUE(x_done.load());
  EXPECT_EQ(x, 1);
  weft::taskwait();
}

TEST(CxxApi, ThreadQueries) {
  EXPECT_EQ(weft::num_threads(), weft_num_threads());
  EXPECT_EQ(weft::thread_id(), 0);
  std::atomic<int> bad{0};
  int n = weft::num_threads();
  for (int i = 0; i < 100; ++i)
    weft::spawn([&] {
      int id = weft::thread_id();
      if (id < 0 || id >= n)
        bad.fetch_add(1);
    });
  weft::taskwait();
  EXPECT_EQ(bad.load(), 0);
}

// Nested C++ tasks mixing the C and C++ APIs.
TEST(CxxApi, MixedWithCApi) {
  std::atomic<int> n{0};
  weft::spawn([&] {
    WT_SPAWN({}, [&] {
      weft::spawn([&] { n.fetch_add(1); });
      weft::taskwait();
      n.fetch_add(1);
    });
    EXPECT_EQ(weft_taskwait(), WEFT_OK);
    n.fetch_add(1);
  });
  weft::taskwait();
  EXPECT_EQ(n.load(), 3);
}

} // namespace
