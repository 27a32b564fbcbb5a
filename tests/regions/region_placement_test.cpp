// Placement of ready region tasks by the score, end to end (one process per
// setting: the tree is read once). WEFT_SCHEDULERS=1x2, 2 workers:
//  * WEFT_SCHED_LOCALITY=100: a chain of tasks on one object all go to the
//    leaf that last produced it (the first one's), and so do readers of it;
//  * WEFT_SCHED_LOCALITY=0: independent tasks spread over both leaves.
// The results are checked against the serial meaning too.
#include "regions/region_space.hpp"

#include <weft/regions.h>

#include <gtest/gtest.h>

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
// leaves; each round the main thread (worker 0) spawns one task on an object
// of each and waits for both. A task whose arguments a leaf owns is placed
// at that leaf, and its worker gets it through its mailbox: the task on the
// second leaf's region runs on that leaf's worker although worker 0 made it
// ready and then waits with nothing else to do. (Queued where it was made
// ready, as before the mailboxes, worker 0 would run it itself in most
// rounds.) Only a worker that stays away longer than the mailbox's patience
// loses its task, so the bound holds on a loaded machine; the hit counter
// reported by WEFT_STATS must agree with what the tasks saw.
struct bind_rec {
  long value = 0;
  int ran_on = -1;
};

void record_worker(void **args) {
  auto *r = static_cast<bind_rec *>(args[0]);
  r->ran_on = weft_thread_id();
  ++r->value;
  // A little work, as a real task (a few microseconds).
  volatile long x = 0;
  for (int i = 0; i < 2000; ++i)
    x = x + i;
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
  *rec[0] = bind_rec{};
  *rec[1] = bind_rec{};
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
  const auto after = tree.totals();
  EXPECT_EQ(after.placed - before.placed, uint64_t(2 * kRounds));
  EXPECT_EQ(after.on_worker - before.on_worker, uint64_t(hits[0] + hits[1]));
  std::printf("placement hits: leaf %d (worker %d) %d/%d, leaf %d (worker %d) "
              "%d/%d\n",
              owner[0]->leaf_index, owner[0]->first_worker, hits[0], kRounds,
              owner[1]->leaf_index, owner[1]->first_worker, hits[1], kRounds);
  // The task whose leaf's worker is not the waiting main thread: at least
  // half the rounds on that worker.
  EXPECT_GE(other_worker, kRounds / 2)
      << "tasks ran on their chosen worker " << other_worker << " of "
      << kRounds << " rounds";
  EXPECT_EQ(weft_free(rec[0]), WEFT_OK);
  EXPECT_EQ(weft_free(rec[1]), WEFT_OK);
  EXPECT_EQ(weft_rfree(ra), WEFT_OK);
  EXPECT_EQ(weft_rfree(rb), WEFT_OK);
}

} // namespace
