// places_mpi_finalize against the calls still in flight (issue 13's
// finalize/op_release race): every rank makes many calls whose f returns a
// pointer (the target releases the closure's graph after its reply, so the
// caller can reach finalize first) right before finalize, and after them a
// few async_at whose futures it drops while f still runs on the target.
// The plan is drawn from WEFT_TEST_SEED (run_mpi.py sets one at random and
// every rank reads the same), so each rank knows how many calls it must
// serve: after finalize it checks that every one ran to its end (f counts
// itself) and that the places' teardown touched nothing a worker still used
// (a crash in release, a report under TSan). Before the fix, finalize freed
// the window and the ring's state while a worker was still in op_release.
#include "../places/graph_util.hpp"

#include "dist_env.hpp"

#include <weft/dist.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

namespace {

using dist_test::expected_world;
using dist_test::seed;

using pt::fnode;

constexpr int kTasks = 4;

struct planned {
  int to;
  int nodes;
  int sleep_us; // dropped calls: how long f takes on the target
};
struct rank_plan {
  std::vector<planned> dropped;              // async_at, future dropped
  std::vector<std::vector<planned>> by_task; // at() returning a pointer
};

// Rank `sender`'s calls, the same on every rank.
rank_plan plan_of(int sender, int world) {
  std::mt19937_64 rng(seed() * 1000003 + std::uint64_t(sender));
  auto other = [&] {
    int r = int(rng() % std::uint64_t(world - 1));
    return r >= sender ? r + 1 : r;
  };
  rank_plan p;
  int nd = 1 + int(rng() % 4);
  for (int i = 0; i < nd; ++i)
    p.dropped.push_back({other(), 1 + int(rng() % 50), int(rng() % 20000)});
  p.by_task.resize(kTasks);
  for (auto &t : p.by_task) {
    int n = 4 + int(rng() % 12);
    for (int i = 0; i < n; ++i)
      t.push_back({other(), 1 + int(rng() % (i % 5 == 4 ? 3000 : 300)), 0});
  }
  return p;
}

// Calls whose f ran to its end on this rank.
std::atomic<long> g_served{0};

TEST(FinalizeRace, PointerResultsAndDroppedFuturesRightBeforeFinalize) {
  const int me = weft::here().id, world = weft::num_places();
  ASSERT_EQ(world, expected_world());
  const rank_plan p = plan_of(me, world);
  std::mt19937_64 rng(seed() ^ (std::uint64_t(me) << 32));
  std::atomic<int> bad{0};
  weft::finish([&] {
    for (int t = 0; t < kTasks; ++t)
      weft::spawn([&, t] {
        std::mt19937_64 trng(seed() + std::uint64_t(me * kTasks + t));
        for (const planned &c : p.by_task[std::size_t(t)]) {
          pt::shape s;
          s.nodes = c.nodes;
          auto *root =
              static_cast<fnode *>(pt::random_graph(trng, weft::here(), s));
          weft::graph<fnode> back =
              weft::at(weft::place{c.to}, root, [](fnode *f) {
                g_served.fetch_add(1, std::memory_order_relaxed);
                return f;
              });
          if (!back ||
              pt::expect_isomorphic(root, back.get()) != back.size().objects)
            bad.fetch_add(1);
          back.reset();
          std::mt19937_64 order{trng()};
          pt::release_made(root, order);
        }
      });
  });
  // Last, futures dropped at once: f is still sleeping on the target when
  // this rank reaches finalize.
  for (const planned &c : p.dropped) {
    pt::shape s;
    s.nodes = c.nodes;
    auto *root = static_cast<fnode *>(pt::random_graph(rng, weft::here(), s));
    (void)weft::async_at(weft::place{c.to}, root, [us = c.sleep_us](fnode *f) {
      std::this_thread::sleep_for(std::chrono::microseconds(us));
      g_served.fetch_add(1, std::memory_order_relaxed);
      return f;
    });
    std::mt19937_64 order{rng()};
    pt::release_made(root, order); // the graph was put before async_at returned
  }
  EXPECT_EQ(bad.load(), 0);
}

} // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  weft::places_mpi_init(std::size_t(32) << 20);
  const int me = weft::here().id, world = weft::num_places();
  long expected = 0;
  for (int s = 0; s < world; ++s) {
    if (s == me)
      continue;
    rank_plan p = plan_of(s, world);
    for (const planned &c : p.dropped)
      expected += c.to == me;
    for (const auto &t : p.by_task)
      for (const planned &c : t)
        expected += c.to == me;
  }
  int rc = RUN_ALL_TESTS();
  weft::places_mpi_finalize();
  // Every call sent to this rank ran to its end before the teardown.
  long served = g_served.load();
  std::printf("rank %d of %d (seed %llu): served %ld calls of %ld\n", me, world,
              static_cast<unsigned long long>(seed()), served, expected);
  if (served != expected) {
    std::fprintf(stderr,
                 "rank %d: served %ld calls, expected %ld: finalize ended "
                 "before every call to this rank was served\n",
                 me, served, expected);
    rc = 1;
  }
  return rc;
}
