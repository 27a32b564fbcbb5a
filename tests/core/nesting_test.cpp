// Nesting: dependences only among siblings, taskwait (direct children only),
// taskgroup (all descendants), several levels of nested tasks.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace {

using wt::Span;

// A child's dependence on an address its parent also names does not wait for
// the parent (that would deadlock: the parent waits for the child).
TEST(Nesting, ChildDepsDoNotWaitForParent) {
  int x = 0;
  std::atomic<int> child_rc{-99}, grandchild_rc{-99}, wait_rc{-99};
  int seen = -1;
  WT_SPAWN({{&x, WEFT_OUT}}, [&] {
    x = 1;
    child_rc = wt::c_spawn({{&x, WEFT_INOUT}}, [&] {
      x += 10;
      grandchild_rc = wt::c_spawn({{&x, WEFT_OUT}}, [&] { x += 100; });
      (void)weft_taskwait();
    });
    wait_rc = weft_taskwait();
    seen = x;
  });
  WT_TASKWAIT();
  EXPECT_EQ(child_rc.load(), WEFT_OK);
  EXPECT_EQ(grandchild_rc.load(), WEFT_OK);
  EXPECT_EQ(wait_rc.load(), WEFT_OK);
  EXPECT_EQ(seen, 111);
}

// A worker that finished a task must not keep its completion from the
// parent's taskwait while it runs a task that blocks: here Y, queued by C on
// C's thread, spins until P's taskwait for C has returned. Y gives up after
// 5 s (a failure, not a hang); Y run by P's own thread proves nothing, so
// rounds go on past kRounds (up to kMaxRounds) until one is conclusive.
TEST(Nesting, FinishedChildCountedBeforeBlockingTask) {
  if (weft_num_threads() < 2)
    GTEST_SKIP() << "needs two threads";
  constexpr int kRounds = 20;
  constexpr int kMaxRounds = 2000;
  int conclusive = 0;
  struct state {
    std::atomic<int> p_thread{-1}, c_ran{0}, p_done{0}, y_result{0};
  };
  for (int r = 0; r < kRounds || (conclusive == 0 && r < kMaxRounds); ++r) {
    // Reached through a pointer each task copies: a nested [&] lambda may
    // refer to its variables through the enclosing task's closure, which
    // is freed when that task ends.
    state s;
    state *st = &s;
    // A group: Y, which nobody waits for, must end within its round.
    ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK) << weft_last_error();
    WT_SPAWN({}, [st] {
      st->p_thread = weft_thread_id();
      (void)wt::c_spawn({}, [st] {
        (void)wt::c_spawn({}, [st] {
          if (weft_thread_id() == st->p_thread.load()) {
            st->y_result = 2;
            return;
          }
          auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
          while (!st->p_done.load() && std::chrono::steady_clock::now() < end) {
          }
          st->y_result = st->p_done.load() ? 1 : 3;
        });
        st->c_ran = 1;
      });
      // Not a scheduling point: C runs on the other thread.
      while (!st->c_ran.load()) {
      }
      (void)weft_taskwait();
      st->p_done = 1;
    });
    ASSERT_EQ(weft_taskgroup_end(), WEFT_OK) << weft_last_error();
    ASSERT_NE(s.y_result.load(), 3)
        << "round " << r << ": P's taskwait did not return while C's thread "
        << "ran Y, though C had finished";
    conclusive += s.y_result.load() == 1;
  }
  EXPECT_GT(conclusive, 0) << "Y always ran on P's thread in " << kMaxRounds
                           << " rounds: nothing checked";
}

// Children of one task are ordered among themselves by their dependences.
TEST(Nesting, ChildrenOrderAmongThemselves) {
  constexpr int kParents = 8;
  std::array<int, kParents> results{};
  std::atomic<int> bad_rc{0};
  for (int p = 0; p < kParents; ++p)
    WT_SPAWN({}, [&, p] {
      int x = 0, y = 0; // on this task's stack: lives until its taskwait
      auto ck = [&](int rc) {
        if (rc != WEFT_OK)
          bad_rc.fetch_add(1);
      };
      ck(wt::c_spawn({{&x, WEFT_OUT}}, [&] {
        wt::sleep_ms(1);
        x = p + 1;
      }));
      ck(wt::c_spawn({{&x, WEFT_IN}, {&y, WEFT_OUT}}, [&] { y = x * 2; }));
      ck(wt::c_spawn({{&y, WEFT_INOUT}}, [&] { y += 1; }));
      ck(weft_taskwait());
      results[static_cast<size_t>(p)] = y;
    });
  WT_TASKWAIT();
  EXPECT_EQ(bad_rc.load(), 0);
  for (int p = 0; p < kParents; ++p)
    EXPECT_EQ(results[static_cast<size_t>(p)], (p + 1) * 2 + 1)
        << "parent " << p;
}

// A child's dependences do not interact with its parent's siblings: task B's
// child reads x while the earlier sibling A (out x) of B is still running.
TEST(Nesting, ChildDepsIgnoreParentsSiblings) {
  if (weft_num_threads() < 2)
    GTEST_SKIP() << "needs at least 2 threads";
  bool conclusive = false;
  for (int attempt = 0; attempt < 10 && !conclusive; ++attempt) {
    int x = 0;
    wt::Guard main_thread;
    wt::Gate gate;
    std::atomic<int> rc{-99};
    main_thread.begin();
    WT_SPAWN({{&x, WEFT_OUT}}, [&] { gate.wait(main_thread); });
    WT_SPAWN({}, [&] {
      rc = wt::c_spawn({{&x, WEFT_IN}}, [&] { gate.release(); });
      (void)weft_taskwait();
    });
    main_thread.end(); // from here a blocked task may occupy this thread:
    WT_TASKWAIT();     // another thread runs the task that releases it
    EXPECT_EQ(rc.load(), WEFT_OK);
    if (!gate.inconclusive.load()) {
      conclusive = true;
      EXPECT_FALSE(gate.timed_out.load())
          << "a child's in(x) waited for its parent's sibling out(x)";
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "the blocking task always ran on the main thread";
}

// Two sibling parents each with children on the same address: the children
// of one do not wait for the children of the other.
TEST(Nesting, CousinsDoNotOrder) {
  if (weft_num_threads() < 2)
    GTEST_SKIP() << "needs at least 2 threads";
  bool conclusive = false;
  for (int attempt = 0; attempt < 10 && !conclusive; ++attempt) {
    int x = 0;
    wt::Guard main_thread;
    wt::Gate gate;
    main_thread.begin();
    WT_SPAWN({}, [&] {
      (void)wt::c_spawn({{&x, WEFT_OUT}}, [&] { gate.wait(main_thread); });
      (void)weft_taskwait();
    });
    WT_SPAWN({}, [&] {
      (void)wt::c_spawn({{&x, WEFT_OUT}}, [&] { gate.release(); });
      (void)weft_taskwait();
    });
    main_thread.end(); // from here a blocked task may occupy this thread:
    WT_TASKWAIT();     // another thread runs the task that releases it
    if (!gate.inconclusive.load()) {
      conclusive = true;
      EXPECT_FALSE(gate.timed_out.load())
          << "the children of two siblings were ordered by their deps";
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "the blocking task always ran on the main thread";
}

TEST(Nesting, TaskwaitWaitsForAllChildren) {
  constexpr int kChildren = 40;
  for (int level = 0; level < 2; ++level) {
    std::atomic<int> done{0};
    int done_at_return = -1;
    auto body = [&] {
      for (int i = 0; i < kChildren; ++i)
        (void)wt::c_spawn({}, [&, i] {
          if (i % 5 == 0)
            wt::sleep_ms(2);
          wt::busy_work(static_cast<unsigned>(i) * 500);
          done.fetch_add(1);
        });
      (void)weft_taskwait();
      done_at_return = done.load();
    };
    if (level == 0) {
      body();
    } else {
      WT_SPAWN({}, body);
      WT_TASKWAIT();
    }
    EXPECT_EQ(done_at_return, kChildren) << "level " << level;
  }
}

// OpenMP taskwait waits for the direct children only: a grandchild that
// blocks until the taskwait has returned must not stop the taskwait.
TEST(Nesting, TaskwaitDoesNotWaitForGrandchildren) {
  bool conclusive = false;
  for (int attempt = 0; attempt < 20 && !conclusive; ++attempt) {
    wt::Guard parent_thread;
    wt::Gate gate;
    std::atomic<bool> child_done_at_return{false};
    std::atomic<bool> grandchild_done_at_return{true};
    // The taskgroup waits for the grandchild too (the root's taskwait would
    // not).
    ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
    WT_SPAWN({}, [&] {
      parent_thread.begin();
      (void)wt::c_spawn({}, [&] {
        (void)wt::c_spawn({}, [&] { gate.wait(parent_thread); });
        // Give another thread the chance to pick the grandchild up (this
        // child's thread may be the parent's, which must not block).
        if (weft_num_threads() > 1)
          (void)wt::spin_until([&] { return gate.started.load(); }, 2.0);
        // no taskwait: the grandchild may outlive this child
      });
      (void)weft_taskwait();
      grandchild_done_at_return.store(gate.finished.load());
      child_done_at_return.store(true);
      gate.release();
      parent_thread.end();
    });
    ASSERT_EQ(weft_taskgroup_end(), WEFT_OK);
    ASSERT_TRUE(gate.finished.load());
    EXPECT_TRUE(child_done_at_return.load());
    if (!gate.inconclusive.load()) {
      conclusive = true;
      EXPECT_FALSE(gate.timed_out.load()) << "taskwait waited for a grandchild";
      EXPECT_FALSE(grandchild_done_at_return.load())
          << "taskwait returned after the blocked grandchild finished";
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "the grandchild always ran on its grandparent's thread";
}

// taskgroup_end waits for every task created in the group and all their
// descendants, also those nobody taskwaits for.
TEST(Nesting, TaskgroupWaitsForAllDescendants) {
  for (int level = 0; level < 2; ++level) {
    std::atomic<int> done{0};
    int done_at_end = -1;
    std::atomic<int> bad_rc{0};
    auto body = [&] {
      if (weft_taskgroup_begin() != WEFT_OK)
        bad_rc.fetch_add(1);
      for (int i = 0; i < 6; ++i)
        (void)wt::c_spawn({}, [&] {
          for (int j = 0; j < 4; ++j)
            (void)wt::c_spawn({}, [&] {
              (void)wt::c_spawn({}, [&] {
                wt::sleep_ms(1);
                done.fetch_add(1);
              });
              done.fetch_add(1);
            });
          done.fetch_add(1);
        });
      if (weft_taskgroup_end() != WEFT_OK)
        bad_rc.fetch_add(1);
      done_at_end = done.load();
    };
    if (level == 0) {
      body();
    } else {
      WT_SPAWN({}, body);
      WT_TASKWAIT();
    }
    EXPECT_EQ(bad_rc.load(), 0);
    EXPECT_EQ(done_at_end, 6 + 6 * 4 * 2) << "level " << level;
    // Everything ran; give no chance of leftovers touching dead stack data.
    ASSERT_TRUE(wt::spin_until([&] { return done.load() == 6 + 6 * 4 * 2; }));
  }
}

TEST(Nesting, NestedTaskgroups) {
  std::atomic<int> inner{0}, outer{0};
  int inner_at_inner_end = -1, outer_at_outer_end = -1, inner_at_outer_end = -1;
  ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
  for (int i = 0; i < 10; ++i)
    WT_SPAWN({}, [&] {
      wt::sleep_ms(1);
      (void)wt::c_spawn({}, [&] { outer.fetch_add(1); });
      outer.fetch_add(1);
    });
  ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
  for (int i = 0; i < 10; ++i)
    WT_SPAWN({}, [&] {
      (void)wt::c_spawn({}, [&] {
        wt::busy_work(20000);
        inner.fetch_add(1);
      });
      inner.fetch_add(1);
    });
  ASSERT_EQ(weft_taskgroup_end(), WEFT_OK);
  inner_at_inner_end = inner.load();
  ASSERT_EQ(weft_taskgroup_end(), WEFT_OK);
  outer_at_outer_end = outer.load();
  inner_at_outer_end = inner.load();
  EXPECT_EQ(inner_at_inner_end, 20);
  EXPECT_EQ(inner_at_outer_end, 20);
  EXPECT_EQ(outer_at_outer_end, 20);
}

// OpenMP's taskgroup waits only for tasks created inside it: a task created
// before the group that blocks until the group ended must not stop it.
TEST(Nesting, TaskgroupDoesNotWaitForEarlierTasks) {
  bool conclusive = false;
  for (int attempt = 0; attempt < 20 && !conclusive; ++attempt) {
    wt::Guard main_thread;
    wt::Gate gate;
    std::atomic<int> in_group{0};
    int in_group_at_end = -1;
    bool blocked_done_at_end = true;
    main_thread.begin();
    WT_SPAWN({}, [&] { gate.wait(main_thread); });
    // Give another thread the chance to pick the blocking task up (this
    // thread may not run it: it releases it).
    if (weft_num_threads() > 1)
      (void)wt::spin_until([&] { return gate.started.load(); }, 2.0);
    ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
    for (int i = 0; i < 4; ++i)
      WT_SPAWN({}, [&] { in_group.fetch_add(1); });
    ASSERT_EQ(weft_taskgroup_end(), WEFT_OK);
    in_group_at_end = in_group.load();
    blocked_done_at_end = gate.finished.load();
    gate.release();
    main_thread.end();
    WT_TASKWAIT();
    EXPECT_EQ(in_group_at_end, 4);
    if (!gate.inconclusive.load()) {
      conclusive = true;
      EXPECT_FALSE(gate.timed_out.load())
          << "taskgroup_end waited for a task created before the group";
      EXPECT_FALSE(blocked_done_at_end);
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "the blocking task always ran on the main thread";
}

// A tree of nested tasks, each level with dependences among its children:
// every node computes a value from its children in dependence order.
namespace tree {
struct Node {
  long value = 0;
};
long expected(int depth, long id) {
  if (depth == 0)
    return id % 7;
  long a = expected(depth - 1, id * 3 + 1);
  long b = expected(depth - 1, id * 3 + 2);
  long c = expected(depth - 1, id * 3 + 3);
  return (a * 2 + b) * 3 - c + 1;
}
void build(int depth, long id, long *out, std::atomic<int> *errors) {
  if (depth == 0) {
    *out = id % 7;
    return;
  }
  long a = -1, b = -1, c = -1, acc = 0;
  auto ck = [&](int rc) {
    if (rc != WEFT_OK)
      errors->fetch_add(1);
  };
  ck(wt::c_spawn({{&a, WEFT_OUT}},
                 [=, &a] { build(depth - 1, id * 3 + 1, &a, errors); }));
  ck(wt::c_spawn({{&b, WEFT_OUT}},
                 [=, &b] { build(depth - 1, id * 3 + 2, &b, errors); }));
  ck(wt::c_spawn({{&c, WEFT_OUT}},
                 [=, &c] { build(depth - 1, id * 3 + 3, &c, errors); }));
  ck(wt::c_spawn({{&a, WEFT_IN}, {&acc, WEFT_OUT}}, [&] { acc = a * 2; }));
  ck(wt::c_spawn({{&b, WEFT_IN}, {&acc, WEFT_INOUT}},
                 [&] { acc = (acc + b) * 3; }));
  ck(wt::c_spawn({{&c, WEFT_IN}, {&acc, WEFT_INOUT}},
                 [&] { acc = acc - c + 1; }));
  ck(weft_taskwait());
  *out = acc;
}
} // namespace tree

TEST(Nesting, SeveralLevelsWithDependences) {
  for (int depth = 1; depth <= 6; ++depth) {
    long result = -1;
    std::atomic<int> errors{0};
    WT_SPAWN({}, [&] { tree::build(depth, 0, &result, &errors); });
    WT_TASKWAIT();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(result, tree::expected(depth, 0)) << "depth " << depth;
  }
}

long fib(int n) {
  if (n < 2)
    return n;
  long a = 0, b = 0;
  weft::spawn([&] { a = fib(n - 1); });
  weft::spawn([&] { b = fib(n - 2); });
  weft::taskwait();
  return a + b;
}

TEST(Nesting, RecursiveFib) {
  long r = -1;
  weft::spawn([&] { r = fib(22); });
  weft::taskwait();
  EXPECT_EQ(r, 17711);
}

// While a task waits, the thread may run other tasks on top of it; with one
// thread and a recursion 16 deep, a correct runtime nests about 16 task
// bodies. A runtime that keeps running unrelated ready tasks in a taskwait
// whose children are all done nests one per task and overflows the stack
// (RecursiveFib above).
thread_local int tl_depth = 0, tl_max_depth = 0;
long fib_depth(int n) {
  struct Scope {
    Scope() { tl_max_depth = std::max(tl_max_depth, ++tl_depth); }
    ~Scope() { --tl_depth; }
  } scope;
  if (n < 2)
    return n;
  long a = 0, b = 0;
  weft::spawn([&] { a = fib_depth(n - 1); });
  weft::spawn([&] { b = fib_depth(n - 2); });
  weft::taskwait();
  return a + b;
}

TEST(Nesting, TaskwaitNestingStaysBoundedOneThread) {
  if (weft_num_threads() != 1)
    GTEST_SKIP() << "only meaningful with one thread";
  tl_depth = tl_max_depth = 0;
  long r = fib_depth(16);
  EXPECT_EQ(r, 987);
  EXPECT_LE(tl_max_depth, 64)
      << "task bodies nested " << tl_max_depth
      << " deep on one thread for a recursion 16 deep: taskwait runs tasks "
         "unrelated to the waiting one";
}

// Deep nesting: a chain of 500 tasks each spawning the next and waiting.
TEST(Nesting, DeepChainOfNestedTasks) {
  std::atomic<int> deepest{0};
  struct Rec {
    static void go(int d, std::atomic<int> *deepest) {
      if (d == 500) {
        deepest->store(d);
        return;
      }
      (void)wt::c_spawn({}, [d, deepest] { go(d + 1, deepest); });
      (void)weft_taskwait();
    }
  };
  WT_SPAWN({}, [&] { Rec::go(1, &deepest); });
  WT_TASKWAIT();
  EXPECT_EQ(deepest.load(), 500);
}

// An unbalanced tree search (BOTS-style UTS): a binomial tree whose shape
// comes from a hash of each node's id (the root has 64 children, every other
// node 4 with probability 0.248: 18741 nodes, 204 levels deep), one task per
// node, taskwait per node. A unit full of parents waiting for their children
// must not stall the program (docs/engines.md, "Serialized tasks").
namespace uts {
constexpr int kRootKids = 64, kKids = 4, kPermille = 248;
constexpr uint64_t kRoot = 1;
constexpr long kNodes = 18741;
constexpr int kDepth = 204;

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
int kids(uint64_t id, int depth) {
  if (depth == 0)
    return kRootKids;
  return mix(id) % 1000 < kPermille ? kKids : 0;
}
uint64_t child(uint64_t id, int i) { return mix(id * 31 + uint64_t(i) + 1); }

struct count {
  long nodes = 0;
  int depth = 0;
  void add(const count &c) {
    nodes += c.nodes;
    depth = std::max(depth, c.depth);
  }
};

count serial(uint64_t id, int depth) {
  count c{1, depth};
  for (int i = 0, n = kids(id, depth); i < n; ++i)
    c.add(serial(child(id, i), depth + 1));
  return c;
}

// Children count into their own slots; the parent adds them up after its
// taskwait.
count tasks(uint64_t id, int depth) {
  int n = kids(id, depth);
  std::vector<count> k(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    weft::spawn([&k, id, i, depth] {
      k[std::size_t(i)] = tasks(child(id, i), depth + 1);
    });
  weft::taskwait();
  count c{1, depth};
  for (const count &x : k)
    c.add(x);
  return c;
}

// The same with dependences: each child writes its slot (out), a last child
// reads every slot (in) and adds them up; the parent waits for all.
count tasks_deps(uint64_t id, int depth) {
  int n = kids(id, depth);
  std::vector<count> k(static_cast<std::size_t>(n));
  count c{1, depth};
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(wt::c_spawn({{&k[std::size_t(i)], WEFT_OUT}},
                          [&k, id, i, depth] {
                            k[std::size_t(i)] =
                                tasks_deps(child(id, i), depth + 1);
                          }),
              WEFT_OK);
  if (n > 0) {
    std::vector<weft_dep> in(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      in[std::size_t(i)] = {&k[std::size_t(i)], WEFT_IN};
    auto *sum = new std::function<void()>([&] {
      for (const count &x : k)
        c.add(x);
    });
    EXPECT_EQ(weft_spawn(
                  [](void *a) {
                    auto *f = static_cast<std::function<void()> *>(a);
                    (*f)();
                    delete f;
                  },
                  sum, in.data(), n),
              WEFT_OK)
        << weft_last_error();
  }
  weft::taskwait();
  return c;
}
} // namespace uts

TEST(Nesting, UnbalancedTreeSearch) {
  uts::count want = uts::serial(uts::kRoot, 0);
  ASSERT_EQ(want.nodes, uts::kNodes);
  ASSERT_EQ(want.depth, uts::kDepth);
  uts::count got;
  weft::spawn([&] { got = uts::tasks(uts::kRoot, 0); });
  weft::taskwait();
  EXPECT_EQ(got.nodes, want.nodes);
  EXPECT_EQ(got.depth, want.depth);
}

// A smaller tree (2009 nodes, 48 levels): under picos a node's waiting
// children hold version memory, so most tasks end up serialized.
TEST(Nesting, UnbalancedTreeSearchWithDependences) {
  const uint64_t root = 7;
  uts::count want = uts::serial(root, 0);
  ASSERT_EQ(want.nodes, 2009);
  ASSERT_EQ(want.depth, 48);
  uts::count got;
  weft::spawn([&] { got = uts::tasks_deps(root, 0); });
  weft::taskwait();
  EXPECT_EQ(got.nodes, want.nodes);
  EXPECT_EQ(got.depth, want.depth);
}

} // namespace
