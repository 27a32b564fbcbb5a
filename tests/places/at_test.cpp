// at(), async_at() and finish() across places: results against the serial
// meaning, copies in the destination's partition, results copied back,
// nesting, exceptions. Run at 1, 2 and 4 threads with several places.
#include "call_tree.hpp"
#include "graph_util.hpp"

#include <weft/places.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

// The worked example of docs/places.md.
struct city {
  long id;
  weft::array<double> temps;
  weft::array<city *> roads;
  city *capital;
  weft::transient<void *> cache;
};
WEFT_TYPE(city, &city::temps, &city::roads, &city::capital, &city::cache);

namespace {

using pt::fnode;
using pt::leaf;

struct Runtime : ::testing::Environment {
  void SetUp() override {
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
  void TearDown() override { (void)weft_shutdown(); }
};
[[maybe_unused]] auto *const env =
    ::testing::AddGlobalTestEnvironment(new Runtime);

double scale() {
  const char *s = std::getenv("WEFT_TEST_SCALE");
  return s && *s ? std::atof(s) : 1.0;
}

leaf *make_list(weft::place p, int n, std::int64_t first) {
  leaf *head = nullptr;
  for (int i = n - 1; i >= 0; --i)
    head = weft::make<leaf>(p, first + i, head);
  return head;
}

std::int64_t sum(const leaf *l) {
  std::int64_t s = 0;
  for (; l; l = static_cast<const leaf *>(l->next))
    s += l->v;
  return s;
}

TEST(At, RunsOnTheCopyInTheDestinationPlace) {
  int np = weft::num_places();
  ASSERT_GE(np, 2) << "WEFT_PLACES";
  leaf *list = make_list(weft::place{0}, 100, 1);
  for (int p = 0; p < np; ++p) {
    std::int64_t s = weft::at(weft::place{p}, list, [p](leaf *c) {
      EXPECT_EQ(weft::here().id, p);
      EXPECT_EQ(weft::place_of(c), p);
      c->v = -1000; // the copy, not the source
      return sum(c);
    });
    EXPECT_EQ(s, 5050 - 1 - 1000);
  }
  EXPECT_EQ(sum(list), 5050);
  EXPECT_EQ(weft::here().id, 0);
}

TEST(At, PointerResultComesBackAsAGraphInTheCallersPlace) {
  int np = weft::num_places();
  leaf *list = make_list(weft::place{0}, 50, 0);
  weft::place to{np - 1};
  // Reverse the list there, in objects made at here().
  weft::graph<leaf> rev = weft::at(to, list, [](leaf *c) {
    leaf *r = nullptr;
    for (; c; c = static_cast<leaf *>(c->next))
      r = weft::make<leaf>(weft::here(), c->v, r);
    return r;
  });
  ASSERT_TRUE(rev);
  EXPECT_EQ(rev.where().id, 0);
  std::int64_t expect = 49;
  for (const leaf *l = rev.get(); l; l = static_cast<const leaf *>(l->next)) {
    EXPECT_EQ(l->v, expect--);
    EXPECT_EQ(weft::place_of(l), 0);
  }
  EXPECT_EQ(expect, -1);
}

TEST(At, AsyncAtInFinishMatchesSerialMeaning) {
  int np = weft::num_places();
  std::mt19937_64 rng(99);
  int n = int(200 * scale()) + 8;
  std::vector<leaf *> lists;
  std::vector<std::int64_t> want;
  for (int i = 0; i < n; ++i) {
    int len = 1 + int(rng() % 200);
    lists.push_back(make_list(weft::place{int(rng() % np)}, len, i));
    want.push_back(sum(lists.back()));
  }
  std::vector<weft::future<std::int64_t>> fs;
  std::atomic<int> ran{0};
  weft::finish([&] {
    for (int i = 0; i < n; ++i)
      fs.push_back(
          weft::async_at(weft::place{i % np}, lists[i], [&ran, i, np](leaf *c) {
            EXPECT_EQ(weft::here().id, i % np);
            ran.fetch_add(1);
            return sum(c);
          }));
  });
  EXPECT_EQ(ran.load(), n) << "finish returned before every async_at ran";
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(fs[i].ready());
    EXPECT_EQ(fs[i].get(), want[i]);
  }
}

TEST(At, NestedAtHopsAcrossPlaces) {
  int np = weft::num_places();
  std::mt19937_64 rng(7);
  void *g = pt::random_graph(rng, weft::place{0}, pt::shape{});
  std::size_t objects = weft::measure(g).objects;
  // Each hop copies the graph on to the next place, np hops deep.
  std::function<std::size_t(fnode *, int)> hop = [&](fnode *c, int left) {
    if (left == 0)
      return pt::expect_isomorphic(g, c);
    int next = (weft::here().id + 1) % np;
    return weft::at(weft::place{next}, c,
                    [&hop, left](fnode *d) { return hop(d, left - 1); });
  };
  std::size_t n = weft::at(weft::place{1 % np}, static_cast<fnode *>(g),
                           [&](fnode *c) { return hop(c, np + 1); });
  EXPECT_EQ(n, objects);
}

TEST(At, ManyConcurrentCopiesOfOneSharedGraph) {
  int np = weft::num_places();
  std::mt19937_64 rng(3);
  pt::shape s;
  s.nodes = 300;
  void *g = pt::random_graph(rng, weft::place{0}, s);
  auto before = pt::snapshot(g);
  std::size_t objects = weft::measure(g).objects;
  int n = int(64 * scale()) + 4;
  std::vector<weft::future<std::size_t>> fs;
  weft::finish([&] {
    for (int i = 0; i < n; ++i)
      fs.push_back(weft::async_at(
          weft::place{i % np}, static_cast<fnode *>(g),
          [](fnode *c) { return weft::measure(c).objects; },
          {i % 2 ? weft::copy_map::hash : weft::copy_map::linear, i % 3 == 0}));
  });
  for (auto &f : fs)
    EXPECT_EQ(f.get(), objects);
  EXPECT_EQ(before, pt::snapshot(g));
}

TEST(At, DocsExample) {
  weft::place home{0}, there{1};
  city *a = weft::make<city>(home, 1), *b = weft::make<city>(home, 2);
  a->temps = weft::make_array<double>(home, 365);
  a->roads = weft::make_array<city *>(home, 2);
  a->roads[0] = b;
  a->roads[1] = a;
  a->capital = b;
  b->capital = b;
  a->cache.value = a;
  long roads = weft::at(there, a, [](city *c) {
    EXPECT_EQ(c->cache.value, nullptr);
    EXPECT_EQ(c->roads[1], c);
    EXPECT_EQ(c->roads[0]->capital, c->roads[0]);
    return long(c->roads.size() + (c->capital == c->roads[0]));
  });
  EXPECT_EQ(roads, 3);
  weft::graph<city> back = weft::at(there, a, [](city *c) {
    return weft::make<city>(weft::here(), c->id * 10);
  });
  EXPECT_EQ(back->id, 10);
  EXPECT_EQ(back.where().id, 0);
  std::vector<weft::future<long>> fs;
  weft::finish([&] {
    for (int i = 0; i < 8; ++i)
      fs.push_back(weft::async_at(there, a, [](city *c) { return c->id; }));
  });
  for (auto &f : fs)
    EXPECT_EQ(f.get(), 1);
}

TEST(At, ExceptionReachesTheCaller) {
  leaf *l = make_list(weft::place{0}, 3, 0);
  EXPECT_THROW(weft::at(weft::place{weft::num_places() - 1}, l,
                        [](leaf *) -> int { throw std::runtime_error("x"); }),
               std::runtime_error);
  auto f = weft::async_at(weft::place{0}, l, [](leaf *c) {
    if (c)
      throw std::out_of_range("remote");
  });
  EXPECT_THROW(f.get(), std::out_of_range);
}

TEST(At, BuffersOfClosuresAreReleased) {
  int np = weft::num_places();
  leaf *l = make_list(weft::place{0}, 1000, 0);
  std::vector<std::size_t> before;
  for (int p = 0; p < np; ++p)
    before.push_back(weft::place_bytes_used(weft::place{p}));
  weft::finish([&] {
    for (int i = 0; i < 200; ++i)
      (void)weft::async_at(weft::place{i % np}, l,
                           [](leaf *c) { return c->v; });
  });
  for (int p = 0; p < np; ++p)
    EXPECT_EQ(weft::place_bytes_used(weft::place{p}), before[p]);
}

// WEFT_PLACES=N splits the team into contiguous blocks, each place at least
// one worker; every worker belongs to a place when there are enough.
TEST(At, PlacesSplitTheTeam) {
  int np = weft::num_places(), T = weft_num_threads();
  std::vector<int> owners(std::size_t(T), 0);
  int next = 0;
  for (int p = 0; p < np; ++p) {
    weft::worker_range r = weft::place_workers(weft::place{p});
    ASSERT_GE(r.count, 1) << "place " << p;
    ASSERT_GE(r.first, 0);
    ASSERT_LE(r.first + r.count, T);
    if (T >= np) {
      EXPECT_EQ(r.first, next) << "place " << p << " of " << np;
      next = r.first + r.count;
    }
    for (int w = r.first; w < r.first + r.count; ++w)
      ++owners[std::size_t(w)];
  }
  if (T >= np) {
    for (int w = 0; w < T; ++w)
      EXPECT_EQ(owners[std::size_t(w)], 1) << "worker " << w;
    EXPECT_EQ(next, T);
  }
  EXPECT_THROW(weft::place_workers(weft::place{np}), std::invalid_argument);
}

// A task of place p runs on one of p's workers, unless they stay busy past
// the mail patience (200 us) and another worker takes it. Each task that ran
// elsewhere must have started at least the patience after it was spawned
// (checked for every task); the share on their own workers is printed (on a
// loaded machine a sleeping owner often wakes later than the patience).
// Bursts of 16 tasks a place (below the throttle), tasks of about 20 us.
TEST(At, TasksOfAPlaceRunOnItsWorkers) {
  using clk = std::chrono::steady_clock;
  int np = weft::num_places(), T = weft_num_threads();
  int rounds = int(10 * scale()) + 2;
  std::atomic<int> on_own{0}, total{0}, early{0};
  std::atomic<long> worst_early_us{-1};
  double chance = 0; // the share of hits if workers were drawn at random
  for (int p = 0; p < np; ++p)
    chance += double(weft::place_workers(weft::place{p}).count) / T / np;
  for (int r = 0; r < rounds; ++r)
    weft::finish([&] {
      for (int i = 0; i < 16 * np; ++i) {
        auto spawned = clk::now();
        (void)weft::async_at(
            weft::place{i % np}, static_cast<leaf *>(nullptr),
            [&, spawned](leaf *) {
              auto t0 = clk::now();
              while (clk::now() - t0 < std::chrono::microseconds(20)) {
              }
              weft::worker_range w = weft::place_workers(weft::here());
              int me = weft_thread_id();
              bool own = me >= w.first && me < w.first + w.count;
              on_own.fetch_add(own);
              total.fetch_add(1);
              // 5 us of slack: the letter's stamp and this clock differ.
              long waited =
                  long(std::chrono::duration_cast<std::chrono::microseconds>(
                           t0 - spawned)
                           .count());
              if (!own && waited < 195) {
                early.fetch_add(1);
                worst_early_us.store(waited);
              }
            });
      }
    });
  double share = double(on_own.load()) / total.load();
  std::printf("tasks on their place's workers: %d of %d (%.2f; at random "
              "%.2f), %d threads, %d places\n",
              on_own.load(), total.load(), share, chance, T, np);
  EXPECT_EQ(total.load(), rounds * 16 * np);
  EXPECT_EQ(early.load(), 0)
      << "tasks ran on another place's worker before the mail patience "
         "(one after "
      << worst_early_us.load() << " us)";
  if (T == 1) {
    EXPECT_EQ(on_own.load(), total.load());
  }
}

// Random trees of nested calls from 6 concurrent tasks (waits nested on
// every worker's stack) give the serial values and end.
TEST(At, RandomNestedCallTrees) {
  const int np = weft::num_places();
  const int tasks = 6, trees = int(8 * scale()) + 1;
  std::atomic<int> bad{0}, done{0};
  weft::finish([&] {
    for (int t = 0; t < tasks; ++t)
      weft::spawn([t, trees, np, &bad, &done] {
        std::mt19937_64 rng(std::uint64_t(t) * 104729 + 20261127);
        for (int k = 0; k < trees; ++k) {
          std::uint64_t seed = rng();
          int depth = 1 + int(rng() % 3);
          std::uint64_t got = weft::at(
              weft::place{int(seed % std::uint64_t(np))},
              static_cast<leaf *>(nullptr), pt::tree_call{seed, depth});
          if (got != pt::tree_value(seed, depth, np))
            bad.fetch_add(1);
          done.fetch_add(1);
        }
      });
  });
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(done.load(), tasks * trees);
}

// One future waited for by two tasks at once (on two workers when the
// call has a third): both wake when it completes. (A future's state named one
// waiting worker: the other slept on, issue 13's hang.)
TEST(At, AFutureWaitedByTwoTasksWakesBoth) {
  const int np = weft::num_places();
  const int rounds = int(40 * scale()) + 4;
  std::atomic<int> woke{0};
  for (int r = 0; r < rounds; ++r) {
    std::atomic<int> waiting{0};
    auto f = weft::async_at(
        weft::place{np - 1}, static_cast<leaf *>(nullptr), [&waiting](leaf *) {
          // Until both waiters are about to wait (5 ms at most: with too
          // few threads they run after), then long enough for them to
          // sleep.
          auto until =
              std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
          while (waiting.load() < 2 && std::chrono::steady_clock::now() < until)
            std::this_thread::yield();
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          return 7;
        });
    weft::finish([&] {
      for (int k = 0; k < 2; ++k)
        weft::spawn([f, &waiting, &woke]() mutable {
          waiting.fetch_add(1);
          f.wait();
          woke.fetch_add(1);
        });
    });
    EXPECT_EQ(f.get(), 7);
  }
  EXPECT_EQ(woke.load(), 2 * rounds);
}

} // namespace
