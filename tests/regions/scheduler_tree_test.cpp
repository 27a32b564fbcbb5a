// The scheduler tree on its own: the WEFT_SCHEDULERS grammar, the shape it
// builds, region placement by level hint and region load, and the lock
// protocol (random connected pieces taken top-down by 4 threads: mutual
// exclusion holds and nothing deadlocks; the CTest TIMEOUT catches a hang).
#include "base/tree_shape.hpp"
#include "regions/scheduler_tree.hpp"

#include <gtest/gtest.h>

#include <random>
#include <thread>

using weft::regions::parse_scheduler_shape;
using weft::regions::sched_locks;
using weft::regions::scheduler;
using weft::regions::scheduler_tree;

TEST(SchedulerShape, Grammar) {
  std::vector<int> f;
  std::string err;
  EXPECT_TRUE(parse_scheduler_shape(nullptr, f, err));
  EXPECT_TRUE(f.empty());
  EXPECT_TRUE(parse_scheduler_shape("flat", f, err));
  EXPECT_TRUE(f.empty());
  EXPECT_TRUE(parse_scheduler_shape("1", f, err));
  EXPECT_TRUE(f.empty());
  EXPECT_TRUE(parse_scheduler_shape("1x4", f, err));
  EXPECT_EQ(f, std::vector<int>({4}));
  EXPECT_TRUE(parse_scheduler_shape("1x2x4", f, err));
  EXPECT_EQ(f, std::vector<int>({2, 4}));
  EXPECT_TRUE(parse_scheduler_shape("1x1x64", f, err));
  EXPECT_EQ(f, std::vector<int>({1, 64}));
  EXPECT_TRUE(parse_scheduler_shape("1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1", f, err));
  EXPECT_EQ(f.size(), 15u); // 16 levels
  for (const char *bad :
       {"", "x", "2", "2x2", "1x", "x1", "1x0", "1x65", "1xtwo", "1x 2", "1x-2",
        "1x2x", "1x64x64x64", "flat2", "0x4",
        "1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1"}) {
    EXPECT_FALSE(parse_scheduler_shape(bad, f, err)) << bad;
    EXPECT_NE(err.find(std::string("WEFT_SCHEDULERS=") + bad + ":"),
              std::string::npos)
        << err;
    EXPECT_TRUE(f.empty());
  }
}

// The one parser (base/tree_shape.hpp) under the simulator's limits too:
// errors name whatever the caller says the value was written as.
TEST(SchedulerShape, SharedParserNamesTheSetting) {
  const weft::tree_shape_limits sim{1024, 0, 0, 65536};
  std::vector<uint32_t> f;
  std::string err;
  EXPECT_TRUE(
      weft::parse_tree_shape("--param schedulers", "1x1024x64", sim, f, err));
  EXPECT_EQ(f, std::vector<uint32_t>({1024, 64}));
  struct bad_case {
    const char *text, *why;
  };
  for (const bad_case &b :
       {bad_case{"1x1025", "'1025' is not a fan-out in [1, 1024]"},
        bad_case{"1x0", "'0' is not a fan-out in [1, 1024]"},
        bad_case{"1xx", "'' is not a fan-out in [1, 1024]"},
        bad_case{"2x4", "the top level must be one scheduler"},
        bad_case{"1x1024x65", "more than 65536 leaf schedulers"},
        bad_case{"1x1024x1024x1024x1024x1024x1024x1024",
                 "more than 65536 leaf schedulers"}}) {
    EXPECT_FALSE(
        weft::parse_tree_shape("--param schedulers", b.text, sim, f, err))
        << b.text;
    EXPECT_EQ(
        err.rfind(std::string("--param schedulers=") + b.text + ": " + b.why,
                  0),
        0u)
        << err;
    EXPECT_TRUE(f.empty());
  }
  // The runtime's limits through the regions' wrapper.
  std::vector<int> g;
  EXPECT_FALSE(parse_scheduler_shape("1x65", g, err));
  EXPECT_EQ(
      err.rfind("WEFT_SCHEDULERS=1x65: '65' is not a fan-out in [1, 64]", 0),
      0u)
      << err;
  EXPECT_FALSE(parse_scheduler_shape("1x64x64x64", g, err));
  EXPECT_EQ(
      err.rfind("WEFT_SCHEDULERS=1x64x64x64: more than 4096 schedulers", 0), 0u)
      << err;
}

TEST(SchedulerShape, Tree) {
  scheduler_tree flat{std::vector<int>{}};
  EXPECT_EQ(flat.size(), 1u);
  EXPECT_EQ(flat.shape(), "flat");
  scheduler_tree t{std::vector<int>{2, 3}};
  EXPECT_EQ(t.size(), 1u + 2 + 6);
  EXPECT_EQ(t.levels(), 3);
  EXPECT_EQ(t.shape(), "1x2x3");
  scheduler &top = t.top();
  ASSERT_EQ(top.children.size(), 2u);
  scheduler &a = *top.children[0]->children[2];
  scheduler &b = *top.children[0]->children[0];
  scheduler &c = *top.children[1]->children[1];
  EXPECT_EQ(&scheduler_tree::lca(a, b), top.children[0]);
  EXPECT_EQ(&scheduler_tree::lca(a, c), &top);
  EXPECT_EQ(&scheduler_tree::lca(a, a), &a);
  EXPECT_EQ(&scheduler_tree::lca(*top.children[0], a), top.children[0]);
  EXPECT_TRUE(top.is_ancestor_of(c));
  EXPECT_FALSE(a.is_ancestor_of(b));
  EXPECT_LT(top.children[0]->id, a.id); // pre-order
}

TEST(SchedulerShape, RegionPlacement) {
  scheduler_tree t{std::vector<int>{2, 2}};
  scheduler &top = t.top();
  // Hint 0 stays with the parent's owner; deeper hints descend to the child
  // with the fewest regions, never below the leaves.
  EXPECT_EQ(&t.place_region(top, 0), &top);
  std::vector<int> per_leaf(7, 0);
  for (int i = 0; i < 8; ++i) {
    scheduler &s = t.place_region(top, 5);
    EXPECT_EQ(s.level, 2);
    ++per_leaf[std::size_t(s.id)];
  }
  for (scheduler *m : top.children)
    for (scheduler *l : m->children)
      EXPECT_EQ(per_leaf[std::size_t(l->id)], 2) << l->id;
  scheduler &mid = *top.children[1];
  EXPECT_EQ(&t.place_region(mid, 1), &mid);       // already at level 1
  EXPECT_EQ(t.place_region(mid, 2).parent, &mid); // inside the parent's subtree
}

TEST(SchedulerLocks, RandomPiecesExcludeAndDoNotDeadlock) {
  scheduler_tree t{std::vector<int>{2, 2, 2}};
  std::vector<scheduler *> all;
  auto collect = [&](auto &self, scheduler &s) -> void {
    all.push_back(&s);
    for (scheduler *c : s.children)
      self(self, *c);
  };
  collect(collect, t.top());
  std::vector<long> counter(all.size(), 0); // guarded by each lock
  const int kThreads = 4, kRounds = 20000;
  std::vector<long> mine(kThreads, 0); // each thread's own increments
  std::vector<std::thread> th;
  for (int w = 0; w < kThreads; ++w)
    th.emplace_back([&, w] {
      std::mt19937 rng(unsigned(w) * 7919u + 1);
      for (int r = 0; r < kRounds; ++r) {
        scheduler *top = all[rng() % all.size()];
        sched_locks locks;
        locks.take_top(*top);
        ++counter[std::size_t(top->id)];
        ++mine[std::size_t(w)];
        // A few descendants, in random order (extend_to takes the paths).
        for (int k = int(rng() % 4); k > 0; --k) {
          scheduler *s = top;
          while (!s->children.empty() && rng() % 3)
            s = s->children[rng() % s->children.size()];
          if (!locks.holds(*s)) {
            locks.extend_to(*s);
            ++counter[std::size_t(s->id)];
            ++mine[std::size_t(w)];
          }
        }
        if (rng() % 16 == 0)
          locks.extend_subtree(*top);
      }
    });
  for (auto &x : th)
    x.join();
  long total = 0, expected = 0;
  for (long c : counter)
    total += c;
  for (long m : mine)
    expected += m;
  EXPECT_EQ(total, expected); // no increment lost: the locks excluded
  EXPECT_GE(expected, long(kThreads) * kRounds);
}

TEST(SchedulerScore, LocalityAgainstLoad) {
  using weft::regions::best_child;
  using weft::regions::placement_arg;
  scheduler_tree t{std::vector<int>{2}};
  t.assign_workers(4); // two workers per leaf
  scheduler &a = *t.leaves()[0], &b = *t.leaves()[1];
  EXPECT_EQ(&t.leaf_of_worker(0), &a);
  EXPECT_EQ(&t.leaf_of_worker(3), &b);
  EXPECT_EQ(t.top().workers, 4);
  const std::vector<scheduler *> &kids = t.top().children;
  placement_arg args[] = {{&a, 300}, {&b, 100}};
  // Nothing loaded: B is 1024 for both, so L decides.
  EXPECT_EQ(best_child(kids, args, 2, 100), &a);
  EXPECT_EQ(best_child(kids, args, 2, 20), &a);
  EXPECT_EQ(best_child(kids, args, 2, 0), &a);
  args[0].bytes = 50;
  EXPECT_EQ(best_child(kids, args, 2, 20), &b);
  args[0].bytes = 300;
  // a loaded (2 tasks per worker), b idle: B_a = 0, B_b = 1024.
  a.load = 4;
  EXPECT_EQ(best_child(kids, args, 2, 100), &a); // locality only
  EXPECT_EQ(best_child(kids, args, 2, 0), &b);   // load only
  // p = 50: a scores 50 * 768, b 50 * 256 + 50 * 1024.
  EXPECT_EQ(best_child(kids, args, 2, 50), &b);
  // p = 80: a 80 * 768 = 61440, b 80 * 256 + 20 * 1024 = 40960.
  EXPECT_EQ(best_child(kids, args, 2, 80), &a);
  // No bytes anywhere: L is 0, load decides.
  placement_arg none[] = {{nullptr, 0}};
  EXPECT_EQ(best_child(kids, none, 1, 100), &a); // a tie: the first
  EXPECT_EQ(best_child(kids, none, 1, 20), &b);
  a.placed = 3; // a tie goes to the child given fewer tasks
  EXPECT_EQ(best_child(kids, none, 1, 100), &b);
  a.placed = 0;
  // place_task counts the load on the way down.
  a.load = 0;
  scheduler &leaf = t.place_task(t.top(), args, 2);
  EXPECT_EQ(&leaf, &a);
  EXPECT_EQ(a.load.load(), 1);
  EXPECT_EQ(t.top().load.load(), 1);
  scheduler_tree::unplace_task(leaf);
  EXPECT_EQ(t.top().load.load(), 0);
}

TEST(SchedulerScore, LeavesWithoutWorkersGetNothing) {
  using weft::regions::placement_arg;
  scheduler_tree t{std::vector<int>{4}};
  t.assign_workers(2); // leaves 2 and 3 have no worker
  EXPECT_EQ(t.leaves()[2]->workers, 0);
  placement_arg at_empty[] = {{t.leaves()[3], 4096}};
  for (int i = 0; i < 20; ++i) {
    scheduler &leaf = t.place_task(t.top(), at_empty, 1);
    EXPECT_LT(leaf.leaf_index, 2);
  }
  // From a subtree without workers, placement starts at the top.
  scheduler &leaf = t.place_task(*t.leaves()[3], at_empty, 1);
  EXPECT_LT(leaf.leaf_index, 2);
}

TEST(SchedulerScore, WorkerOfALeafByItsProducedBytes) {
  using weft::regions::placement_arg;
  scheduler_tree t{std::vector<int>{1}}; // one leaf of two workers
  t.assign_workers(2);
  scheduler &leaf = *t.leaves()[0];
  ASSERT_EQ(leaf.workers, 2);
  // Worker 1 produced 300 bytes, worker 0 100, and 100 are nobody's.
  placement_arg args[] = {{&leaf, 300, 1}, {&leaf, 100, 0}, {nullptr, 100}};
  t.set_locality(100); // locality only: the producer of the most bytes
  EXPECT_EQ(t.pick_worker(leaf, 0, args, 3), 1);
  t.unpick_worker(1);
  t.set_locality(0); // load only: a tie (none loaded) goes to the caller
  EXPECT_EQ(t.pick_worker(leaf, 0, args, 3), 0);
  EXPECT_EQ(t.pick_worker(leaf, 0, args, 3), 1); // worker 0 is loaded now
  t.unpick_worker(0);
  t.unpick_worker(1);
  EXPECT_EQ(t.pick_worker(leaf, 1, nullptr, 0), 1); // tie: the caller
  EXPECT_EQ(t.pick_worker(leaf, 1, nullptr, 0), 0); // the less loaded
  t.unpick_worker(0);                               // worker 1 has one task
  t.set_locality(100);
  EXPECT_EQ(t.pick_worker(leaf, 0, args, 3), 1);
  // Worker 1 has 2 tasks, worker 0 none: B_0 = 1024, B_1 = 0; L_0 = 1024 *
  // 100 / 500 = 204.8, L_1 = 614.4.
  // p = 50: T_0 = 50 * 204.8 + 50 * 1024 = 61440, T_1 = 50 * 614.4 = 30720.
  t.set_locality(50);
  EXPECT_EQ(t.pick_worker(leaf, 1, args, 3), 0);
  t.unpick_worker(0);
  // p = 85: T_0 = 85 * 204.8 + 15 * 1024 = 32768, T_1 = 85 * 614.4 = 52224.
  t.set_locality(85);
  EXPECT_EQ(t.pick_worker(leaf, 0, args, 3), 1);
}
