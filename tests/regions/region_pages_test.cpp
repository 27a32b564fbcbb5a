// Page trading between schedulers (docs/regions.md, "The allocator"):
// concurrent random allocation and freeing in regions owned by different
// schedulers (run under WEFT_SCHEDULERS=1x2x2 and flat, at 1, 2 and 4
// threads). After every round: every live object keeps its contents and its
// region, no two live objects overlap, and the allocator's bookkeeping holds
// (region_allocator::check: every page taken is in use by the regions of
// one scheduler or free in exactly one pool, no leak, counts agree). At the
// end every region is freed with objects still in it: no page or slab stays
// in use, and under a tree every level asked for pages.
#include "regions/region_allocator.hpp"
#include "regions/region_space.hpp"

#include <weft/regions.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using weft::regions::region_space;

struct live_obj {
  unsigned char *p;
  std::size_t size;
  unsigned char tag;
};

// One region's objects, touched only by the task holding the region.
struct region_state {
  weft_rid rid = 0;
  std::vector<live_obj> objs;
  std::mt19937_64 rng;
  int bad = 0; // failures seen inside tasks (gtest asserts stay on main)
};

std::size_t random_size(std::mt19937_64 &g) {
  unsigned k = unsigned(g() % 100);
  if (k < 70)
    return 1 + g() % 512; // shares slabs
  if (k < 95)
    return 513 + g() % 6000; // larger classes and short slab runs
  if (k < 99)
    return 100000 + g() % 300000;                  // a long slab run
  return (std::size_t(1) << 20) + g() % (1 << 20); // several pages
}

bool intact(const live_obj &o) {
  for (std::size_t i = 0; i < o.size; i += 61)
    if (o.p[i] != o.tag)
      return false;
  return o.p[o.size - 1] == o.tag;
}

void churn(void **args) {
  auto *st = static_cast<region_state *>(args[1]);
  const int ops = 120;
  for (int i = 0; i < ops; ++i) {
    bool alloc = st->objs.empty() || st->rng() % 100 < 55;
    if (alloc) {
      std::size_t n = random_size(st->rng);
      auto *p = static_cast<unsigned char *>(weft_alloc(n, st->rid));
      weft_rid where = 0;
      if (!p || weft_region_of(p + n - 1, &where) != WEFT_OK ||
          where != st->rid) {
        ++st->bad;
        return;
      }
      auto tag = static_cast<unsigned char>(st->rng());
      std::memset(p, tag, n);
      st->objs.push_back({p, n, tag});
    } else {
      std::size_t k = st->rng() % st->objs.size();
      if (!intact(st->objs[k]) || weft_free(st->objs[k].p) != WEFT_OK) {
        ++st->bad;
        return;
      }
      st->objs[k] = st->objs.back();
      st->objs.pop_back();
    }
  }
}

void *rid_arg(weft_rid r) { return reinterpret_cast<void *>(uintptr_t(r)); }

TEST(RegionPages, TradedBetweenSchedulers) {
  region_space &sp = region_space::get();
  bool tree = sp.schedulers().levels() > 1;
  // Regions spread over the schedulers: level hints 0 (the top), 1 and 2
  // (leaves under 1x2x2), and a few nested ones.
  std::vector<region_state> st(12);
  for (std::size_t i = 0; i < st.size(); ++i) {
    weft_rid parent = i >= 8 ? st[i - 8].rid : WEFT_ROOT_REGION;
    st[i].rid = weft_ralloc(parent, int(i % 3));
    ASSERT_NE(st[i].rid, 0u) << weft_last_error();
    st[i].rng.seed(0x5eed + i);
  }
  std::set<const weft::regions::scheduler *> owners;
  {
    std::lock_guard<std::mutex> lk(sp.struct_lock());
    for (auto &s : st)
      owners.insert(sp.lookup_region(s.rid)->owner);
  }
  if (tree) {
    ASSERT_GE(owners.size(), 4u) << "the regions should have spread";
  }
  const int rounds = 6;
  for (int round = 0; round < rounds; ++round) {
    // The top-level regions' tasks run at once; a nested region's task
    // waits for its parent's (inout on the parent covers it).
    for (auto &s : st) {
      void *a[] = {rid_arg(s.rid), &s};
      int t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
      ASSERT_EQ(weft_rspawn(churn, 2, a, t), WEFT_OK) << weft_last_error();
    }
    void *root[] = {rid_arg(WEFT_ROOT_REGION)};
    int rt[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
    ASSERT_EQ(weft_wait(root, rt, 1), WEFT_OK) << weft_last_error();
    std::vector<std::pair<uintptr_t, uintptr_t>> spans;
    for (auto &s : st) {
      ASSERT_EQ(s.bad, 0) << "region " << s.rid << ", round " << round;
      for (const live_obj &o : s.objs) {
        ASSERT_TRUE(intact(o)) << "region " << s.rid << ", round " << round;
        weft_rid where = 0;
        ASSERT_EQ(weft_region_of(o.p, &where), WEFT_OK);
        ASSERT_EQ(where, s.rid);
        spans.push_back({uintptr_t(o.p), uintptr_t(o.p) + o.size});
      }
    }
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i)
      ASSERT_LE(spans[i - 1].second, spans[i].first) << "objects overlap";
    ASSERT_EQ(sp.check_allocator(), "") << "round " << round;
  }
  // Free everything, objects still inside (nested regions with their
  // parents).
  for (std::size_t i = 0; i < 8; ++i)
    ASSERT_EQ(weft_rfree(st[i].rid), WEFT_OK) << weft_last_error();
  ASSERT_EQ(sp.check_allocator(), "");
  {
    std::lock_guard<std::mutex> lk(sp.struct_lock());
    EXPECT_EQ(sp.allocator().pages_in_use(), 0u);
    EXPECT_EQ(sp.allocator().slabs_in_use(), 0u);
    // Below the top, no pool keeps more than its high-water mark.
    std::vector<const weft::regions::scheduler *> todo{&sp.schedulers().top()};
    while (!todo.empty()) {
      const auto *s = todo.back();
      todo.pop_back();
      if (s->parent) {
        EXPECT_LE(s->pages.free.size(), weft::regions::kPoolHighWater);
      }
      EXPECT_TRUE(s->pages.with_room.empty());
      for (const auto *c : s->children)
        todo.push_back(c);
    }
  }
  std::vector<uint64_t> req = sp.page_requests_by_level();
  ASSERT_EQ(req.size(), std::size_t(sp.schedulers().levels()));
  for (std::size_t l = 0; l < req.size(); ++l)
    EXPECT_GT(req[l], 0u) << "no page request at level " << l;
}

} // namespace
