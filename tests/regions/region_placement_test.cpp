// Placement of ready region tasks by the score, end to end (one process per
// setting: the tree is read once). WEFT_SCHEDULERS=1x2, 2 workers:
//  * WEFT_SCHED_LOCALITY=100: a chain of tasks on one object all go to the
//    leaf that last produced it (the first one's), and so do readers of it;
//  * WEFT_SCHED_LOCALITY=0: independent tasks spread over both leaves.
// The results are checked against the serial meaning too.
#include "core/runtime.hpp"
#include "regions/region_space.hpp"

#include <weft/regions.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace {

using weft::regions::region_space;

void add_one(void **args) { ++*static_cast<long *>(args[0]); }

std::vector<uint64_t> placed_per_leaf() {
  std::vector<uint64_t> v;
  for (auto *leaf : region_space::get().schedulers().leaves())
    v.push_back(leaf->placed.load());
  return v;
}

TEST(RegionPlacement, ByScore) {
  const char *p = std::getenv("WEFT_SCHED_LOCALITY");
  ASSERT_NE(p, nullptr) << "run with WEFT_SCHED_LOCALITY set";
  int locality = std::atoi(p);
  ASSERT_EQ(region_space::get().schedulers().locality(), locality);
  ASSERT_EQ(region_space::get().schedulers().leaves().size(), 2u);
  weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 0);
  ASSERT_NE(r, 0u);
  const int kTasks = 200;
  if (locality == 100) {
    auto *x = static_cast<long *>(weft_alloc(sizeof(long), r));
    *x = 0;
    void *a[] = {x};
    int t[] = {WEFT_ARG_INOUT};
    for (int i = 0; i < kTasks; ++i)
      ASSERT_EQ(weft_rspawn(add_one, 1, a, t), WEFT_OK);
    ASSERT_EQ(weft_wait(a, t, 1), WEFT_OK);
    EXPECT_EQ(*x, kTasks);
    std::vector<uint64_t> v = placed_per_leaf();
    EXPECT_EQ(v[0] + v[1], uint64_t(kTasks));
    EXPECT_TRUE(v[0] == uint64_t(kTasks) || v[1] == uint64_t(kTasks))
        << v[0] << " / " << v[1];
  } else {
    ASSERT_EQ(locality, 0);
    std::vector<long *> xs;
    for (int i = 0; i < kTasks; ++i) {
      xs.push_back(static_cast<long *>(weft_alloc(sizeof(long), r)));
      *xs.back() = i;
    }
    for (int i = 0; i < kTasks; ++i) {
      void *a[] = {xs[std::size_t(i)]};
      int t[] = {WEFT_ARG_INOUT};
      ASSERT_EQ(weft_rspawn(add_one, 1, a, t), WEFT_OK);
    }
    void *a[] = {reinterpret_cast<void *>(uintptr_t(r))};
    int t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
    ASSERT_EQ(weft_wait(a, t, 1), WEFT_OK);
    for (int i = 0; i < kTasks; ++i)
      EXPECT_EQ(*xs[std::size_t(i)], i + 1);
    std::vector<uint64_t> v = placed_per_leaf();
    EXPECT_EQ(v[0] + v[1], uint64_t(kTasks));
    // Load balance alone: neither leaf is left idle.
    EXPECT_GE(v[0], uint64_t(kTasks) / 10) << v[0] << " / " << v[1];
    EXPECT_GE(v[1], uint64_t(kTasks) / 10) << v[0] << " / " << v[1];
  }
  EXPECT_EQ(weft_rfree(r), WEFT_OK);
}

// Binding (WEFT_SCHEDULERS=1x2, 2 workers): two regions owned by the two
// leaves; each round the main thread (worker 0) makes one task on an object
// of each ready and waits for both. A task whose arguments a leaf owns is
// placed at that leaf and sent to its worker's mailbox: every task must go
// to its own leaf's worker's mailbox (exact, whatever the load), some of
// the second leaf's tasks must run on worker 1 although worker 0 made them
// ready and then waits (queued on worker 0's deque, as before the
// mailboxes, none did in three runs), and the hit counter that WEFT_STATS
// reports must agree with what the tasks saw.
struct bind_rec {
  long value = 0;
  int ran_on = -1;
  int spin_us = 0;
};

void record_worker(void **args) {
  auto *r = static_cast<bind_rec *>(args[0]);
  r->ran_on = weft_thread_id();
  ++r->value;
  // Work, as a real task (spin_us).
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::microseconds(r->spin_us);
  while (std::chrono::steady_clock::now() < until) {
  }
}

TEST(RegionPlacement, BindsToChosenWorker) {
  region_space &sp = region_space::get();
  auto &tree = sp.schedulers();
  ASSERT_EQ(tree.leaves().size(), 2u);
  ASSERT_EQ(weft_num_threads(), 2);
  weft_rid ra = weft_ralloc(WEFT_ROOT_REGION, 1);
  weft_rid rb = weft_ralloc(WEFT_ROOT_REGION, 1);
  ASSERT_NE(ra, 0u);
  ASSERT_NE(rb, 0u);
  weft::regions::scheduler *owner[2];
  {
    std::lock_guard<std::mutex> lk(sp.struct_lock());
    owner[0] = sp.lookup_region(ra)->owner;
    owner[1] = sp.lookup_region(rb)->owner;
  }
  ASSERT_GE(owner[0]->leaf_index, 0);
  ASSERT_GE(owner[1]->leaf_index, 0);
  ASSERT_NE(owner[0], owner[1]) << "the two regions share a leaf";
  bind_rec *rec[2] = {
      static_cast<bind_rec *>(weft_alloc(sizeof(bind_rec), ra)),
      static_cast<bind_rec *>(weft_alloc(sizeof(bind_rec), rb))};
  ASSERT_TRUE(rec[0] && rec[1]);
  // Worker 0's own task is the longer one: the other worker, woken for
  // its task, has 2 ms (plus the mailbox's patience) to get a core before
  // worker 0 is free to take it; a loaded machine may still not give it
  // one in time.
  *rec[0] = bind_rec{};
  *rec[1] = bind_rec{};
  rec[owner[0]->first_worker == 0 ? 0 : 1]->spin_us = 2000;
  rec[owner[0]->first_worker == 0 ? 1 : 0]->spin_us = 200;
  weft::team &members = weft::g_runtime.load()->initial_team();
  uint64_t put0[2] = {members.slot(0).mail.put_count(),
                      members.slot(1).mail.put_count()};
  const auto before = tree.totals();
  const int kRounds = 200;
  int hits[2] = {0, 0}, other_worker = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < 2; ++k) {
      void *a[] = {rec[k]};
      int t[] = {WEFT_ARG_INOUT};
      ASSERT_EQ(weft_rspawn(record_worker, 1, a, t), WEFT_OK);
    }
    void *a[] = {rec[0], rec[1]};
    int t[] = {WEFT_ARG_INOUT, WEFT_ARG_INOUT};
    ASSERT_EQ(weft_wait(a, t, 2), WEFT_OK);
    for (int k = 0; k < 2; ++k) {
      hits[k] += rec[k]->ran_on == owner[k]->first_worker;
      other_worker += owner[k]->first_worker != 0 &&
                      rec[k]->ran_on == owner[k]->first_worker;
    }
  }
  EXPECT_EQ(rec[0]->value, kRounds);
  EXPECT_EQ(rec[1]->value, kRounds);
  // Every task went to its leaf's worker's mailbox (the decision, whatever
  // the load did after it).
  for (int k = 0; k < 2; ++k)
    EXPECT_EQ(members.slot(owner[k]->first_worker).mail.put_count() -
                  put0[owner[k]->first_worker],
              uint64_t(kRounds))
        << "leaf " << owner[k]->leaf_index;
  const auto after = tree.totals();
  EXPECT_EQ(after.placed - before.placed, uint64_t(2 * kRounds));
  EXPECT_EQ(after.on_worker - before.on_worker, uint64_t(hits[0] + hits[1]));
  std::printf("placement hits: leaf %d (worker %d) %d/%d, leaf %d (worker %d) "
              "%d/%d\n",
              owner[0]->leaf_index, owner[0]->first_worker, hits[0], kRounds,
              owner[1]->leaf_index, owner[1]->first_worker, hits[1], kRounds);
  // Where they ran depends on the load: a worker woken for its task and
  // given no core within the mailbox's patience loses it to worker 0
  // (4-25% of the rounds ran on worker 1 at load 13-18, 89-98% with a 5 ms
  // patience that made fine-grained programs 70x slower). Queued on worker
  // 0's deque instead (no binding) none do: at least one must.
  EXPECT_GE(other_worker, 1) << "tasks ran on their chosen worker "
                             << other_worker << " of " << kRounds << " rounds";
  EXPECT_EQ(weft_free(rec[0]), WEFT_OK);
  EXPECT_EQ(weft_free(rec[1]), WEFT_OK);
  EXPECT_EQ(weft_rfree(ra), WEFT_OK);
  EXPECT_EQ(weft_rfree(rb), WEFT_OK);
}

} // namespace
