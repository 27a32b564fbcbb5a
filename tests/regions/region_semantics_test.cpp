// Specific properties of the region dependence analysis, and the C++ API:
// deep nesting on one region, readers of a region running together, a
// writer of a region waiting for tasks deep inside it, weft::spawn /
// weft::wait with region and object arguments.
#include "test_util.hpp"

#include <weft/regions.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

std::atomic<int> g_depth_reached{0};

void nest(weft::region r, int level, int max, long *counter) {
  ++*counter; // this task holds r for writing: no race
  g_depth_reached.store(level);
  if (level < max)
    weft::spawn(weft::inout(r), [=] { nest(r, level + 1, max, counter); });
}

// 300 levels of tasks, each spawning its child on the region it holds
// itself (the parent's entry is transparent to its descendants); a later
// sibling of the first one must wait for the whole chain.
TEST(RegionSemantics, DeepNestingOnOneRegion) {
  weft::region r = weft::region::root().sub();
  long *counter = r.make<long>(0);
  weft::spawn(weft::inout(r), [=] { nest(r, 1, 300, counter); });
  long seen = -1;
  weft::spawn(weft::in(r), [=, &seen] { seen = *counter; });
  weft::wait(weft::inout(r));
  EXPECT_EQ(seen, 300);
  EXPECT_EQ(g_depth_reached.load(), 300);
  r.free();
}

// Two readers of one region run at the same time: each waits (bounded) for
// the other to have started.
TEST(RegionSemantics, ReadersOfARegionRunTogether) {
  if (weft::num_threads() < 2)
    GTEST_SKIP() << "needs two workers";
  weft::region r = weft::region::root().sub();
  std::atomic<int> started{0};
  std::atomic<int> overlapped{0};
  for (int i = 0; i < 2; ++i)
    weft::spawn(weft::in(r), [&] {
      started.fetch_add(1);
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (started.load() < 2 && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
      if (started.load() == 2)
        overlapped.fetch_add(1);
    });
  weft::wait(weft::inout(r));
  EXPECT_EQ(overlapped.load(), 2);
  r.free();
}

// A writer of the top region waits for tasks on objects two regions down,
// spawned by a task that held the middle region; objects in other regions
// are not ordered behind it.
TEST(RegionSemantics, RegionWriterWaitsForDeepObjects) {
  weft::region top = weft::region::root().sub();
  weft::region mid = top.sub(1);
  weft::region low = mid.sub(2);
  constexpr int n = 64;
  std::vector<long *> objs;
  for (int i = 0; i < n; ++i)
    objs.push_back(low.make<long>(0));
  weft::spawn(weft::inout(mid), [=] {
    for (long *o : objs)
      weft::spawn(weft::inout(weft::object(o)), [o] {
        wt::busy_work(2000);
        *o += 1;
      });
  });
  long sum = -1;
  weft::spawn(weft::inout(top), [=, &sum] {
    sum = 0;
    for (long *o : objs)
      sum += *o;
  });
  weft::wait(weft::in(top));
  EXPECT_EQ(sum, n);
  top.free();
}

// weft::spawn(weft::inout(r), weft::in(obj), f): a plain weft::in(x) in a
// region task names the object x (it must be a weft_alloc object).
TEST(RegionSemantics, CxxObjectAndRegionArguments) {
  weft::region a = weft::region::root().sub();
  weft::region b = weft::region::root().sub();
  int *x = b.make<int>(5);
  int *y = a.make<int>(0);
  for (int i = 0; i < 100; ++i) {
    weft::spawn(weft::inout(a), weft::in(*x), [=] { *y += *x; });
    if (i % 10 == 9)
      weft::spawn(weft::inout(*x), weft::in(a), [=] { *x += 1; });
  }
  weft::wait(weft::in(a), weft::in(weft::object(x)));
  // x is 5 for ten adds, 6 for the next ten, ...: sum of 10 * (5..14).
  EXPECT_EQ(*y, 10 * (5 + 14) * 10 / 2);
  int on_stack = 0;
  EXPECT_THROW(weft::spawn(weft::inout(a), weft::in(on_stack), [] {}),
               std::invalid_argument);
  a.free();
  b.free();
}

// Plain tasks (address dependences) spawned inside a region task are part
// of it: the next region task on the same object sees all their writes.
TEST(RegionSemantics, PlainTasksInsideARegionTask) {
  weft::region r = weft::region::root().sub();
  constexpr int n = 32;
  auto *v = static_cast<long *>(r.alloc(n * sizeof(long)));
  for (int i = 0; i < n; ++i)
    v[i] = 0;
  for (int round = 0; round < 20; ++round)
    weft::spawn(weft::inout(weft::object(v)), [v] {
      for (int i = 0; i < n; ++i)
        weft::spawn(weft::inout(v[i]), [v, i] {
          wt::busy_work(500);
          v[i] += 1;
        });
    });
  long sum = -1;
  weft::spawn(weft::in(weft::object(v)), [v, &sum] {
    sum = 0;
    for (int i = 0; i < n; ++i)
      sum += v[i];
  });
  weft::wait(weft::inout(r));
  EXPECT_EQ(sum, 20 * n);
  r.free();
}

// A region task's exception is reported by the next weft::wait (and the
// arguments it held are released all the same).
TEST(RegionSemantics, ExceptionReachesWait) {
  weft::region r = weft::region::root().sub();
  int *x = r.make<int>(0);
  weft::spawn(weft::inout(weft::object(x)),
              [] { throw std::runtime_error("boom in a region task"); });
  weft::spawn(weft::inout(weft::object(x)), [x] { *x = 1; });
  try {
    weft::wait(weft::inout(r));
    ADD_FAILURE() << "weft::wait did not rethrow";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "boom in a region task");
  }
  EXPECT_EQ(*x, 1);
  weft::wait(weft::inout(r)); // reported once
  r.free();
}

} // namespace
