// Placement of ready region tasks by the score, end to end (one process per
// setting: the tree is read once). WEFT_SCHEDULERS=1x2, 2 workers:
//  * WEFT_SCHED_LOCALITY=100: a chain of tasks on one object all go to the
//    leaf that last produced it (the first one's), and so do readers of it;
//  * WEFT_SCHED_LOCALITY=0: independent tasks spread over both leaves.
// The results are checked against the serial meaning too.
#include "regions/region_space.hpp"

#include <weft/regions.h>

#include <gtest/gtest.h>

#include <cstdlib>
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

} // namespace
