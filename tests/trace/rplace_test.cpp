// Placement decisions in the trace (rplace, format version 5): a region
// program under a 1x2x2 scheduler tree records one rplace per placed region
// task, as many as the scheduler tree counts (what WEFT_STATS prints as
// placed=), each naming a leaf, a worker of that leaf, and a handling
// scheduler above the leaf.
#include "regions/region_space.hpp"
#include "regions/scheduler_tree.hpp"
#include "trace/read/trace_reader.hpp"

#include <weft/regions.h>
#include <weft/weft.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <unistd.h>

namespace wt = weft::trace;

namespace {

void touch(void **args) {
  auto *p = static_cast<long *>(args[0]);
  ++*p;
}

TEST(RegionPlacement, OneRecordPerPlacedTaskMatchingTheTreesCount) {
  std::string path =
      testing::TempDir() + "weft_rplace_" + std::to_string(getpid()) + ".trace";
  setenv("WEFT_SCHEDULERS", "1x2x2", 1);
  setenv("WEFT_TRACE", path.c_str(), 1);
  ASSERT_EQ(weft_init(2), WEFT_OK) << weft_last_error();
  weft::regions::scheduler_tree &tree =
      weft::regions::region_space::get().schedulers();
  const uint64_t before = tree.totals().placed;
  constexpr int kRegions = 4, kObjects = 4, kRounds = 8;
  long *obj[kRegions][kObjects];
  for (int r = 0; r < kRegions; ++r) {
    weft_rid rid = weft_ralloc(WEFT_ROOT_REGION, 2);
    ASSERT_NE(rid, 0u) << weft_last_error();
    for (int o = 0; o < kObjects; ++o) {
      obj[r][o] = static_cast<long *>(weft_alloc(sizeof(long), rid));
      ASSERT_NE(obj[r][o], nullptr) << weft_last_error();
      *obj[r][o] = 0;
    }
  }
  int spawned = 0;
  for (int k = 0; k < kRounds; ++k)
    for (int r = 0; r < kRegions; ++r)
      for (int o = 0; o < kObjects; ++o) {
        void *args[1] = {obj[r][o]};
        int types[1] = {WEFT_ARG_INOUT};
        ASSERT_EQ(weft_rspawn(touch, 1, args, types), WEFT_OK)
            << weft_last_error();
        ++spawned;
      }
  void *root[1] = {reinterpret_cast<void *>(uintptr_t(WEFT_ROOT_REGION))};
  int rtype[1] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
  ASSERT_EQ(weft_wait(root, rtype, 1), WEFT_OK) << weft_last_error();
  for (int r = 0; r < kRegions; ++r)
    for (int o = 0; o < kObjects; ++o)
      EXPECT_EQ(*obj[r][o], kRounds);
  const uint64_t placed = tree.totals().placed - before;
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");
  unsetenv("WEFT_SCHEDULERS");

  wt::trace_data t = wt::read(path);
  std::remove(path.c_str());
  std::set<uint64_t> seqs;
  uint64_t records = 0;
  std::set<uint32_t> leaves_used;
  for (const wt::record &r : t.records) {
    if (r.type != wt::kind::rplace)
      continue;
    ++records;
    EXPECT_TRUE(seqs.insert(wt::rplace_seq(r.arg)).second)
        << "region task " << wt::rplace_seq(r.arg) << " placed twice";
    uint32_t leaf = wt::rplace_leaf(r.arg), from = wt::rplace_from(r.arg);
    bool is_leaf = false;
    for (const weft::regions::scheduler *l : tree.leaves())
      if (uint32_t(l->id) == leaf) {
        is_leaf = true;
        // The handling scheduler is the leaf or one of its ancestors.
        bool above = false;
        for (const weft::regions::scheduler *x = l; x; x = x->parent)
          above |= uint32_t(x->id) == from;
        EXPECT_TRUE(above) << "scheduler " << from << " is not above leaf "
                           << leaf;
      }
    EXPECT_TRUE(is_leaf) << "scheduler " << leaf << " is not a leaf";
    EXPECT_EQ(uint32_t(tree.leaf_of_worker(int(r.count)).id), leaf)
        << "worker " << r.count << " is not in leaf " << leaf;
    leaves_used.insert(leaf);
  }
  EXPECT_EQ(placed, uint64_t(spawned));
  EXPECT_EQ(records, placed);
  EXPECT_GE(leaves_used.size(), 2u); // 1x2x2 at 2 workers: a leaf each
}

} // namespace
