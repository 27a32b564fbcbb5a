// The region allocator through the public API: O(1) region lookup from any
// address inside an object, small, slab-run and multi-page objects, reuse
// after free, realloc across regions, bulk allocation, recursive rfree.
#include <weft/regions.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

namespace {

weft_rid region_of(const void *p) {
  weft_rid r = 12345678;
  EXPECT_EQ(weft_region_of(p, &r), WEFT_OK) << weft_last_error();
  return r;
}

TEST(RegionAllocator, LookupFromAnyAddress) {
  std::vector<weft_rid> regs;
  for (int i = 0; i < 50; ++i)
    regs.push_back(weft_ralloc(i ? regs[i / 2] : WEFT_ROOT_REGION, 0));
  const std::size_t sizes[] = {
      1, 16, 17, 100, 2048, 2049, 5000, 70000, (1u << 20) + 5, (3u << 20) + 1};
  std::vector<std::pair<char *, std::size_t>> objs;
  std::vector<weft_rid> owner;
  for (int round = 0; round < 4; ++round)
    for (std::size_t s : sizes)
      for (weft_rid r : regs) {
        if (s > 100000 && r % 10 != 0)
          continue;
        auto *p = static_cast<char *>(weft_alloc(s, r));
        ASSERT_NE(p, nullptr) << weft_last_error();
        ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
        std::memset(p, int(r & 0xff), s);
        objs.push_back({p, s});
        owner.push_back(r);
      }
  for (std::size_t i = 0; i < objs.size(); ++i) {
    auto [p, s] = objs[i];
    ASSERT_EQ(region_of(p), owner[i]);
    ASSERT_EQ(region_of(p + s - 1), owner[i]);
    ASSERT_EQ(region_of(p + s / 2), owner[i]);
    ASSERT_EQ(static_cast<unsigned char>(p[s - 1]), owner[i] & 0xff);
  }
  // Free every other object; the rest keep their contents and regions, and
  // new objects reuse the space without overlapping live ones.
  for (std::size_t i = 0; i < objs.size(); i += 2)
    ASSERT_EQ(weft_free(objs[i].first), WEFT_OK);
  weft_rid out;
  EXPECT_EQ(weft_region_of(objs[0].first, &out), WEFT_EINVAL);
  std::vector<char *> again;
  for (weft_rid r : regs)
    again.push_back(static_cast<char *>(weft_alloc(64, r)));
  for (std::size_t i = 1; i < objs.size(); i += 2) {
    auto [p, s] = objs[i];
    ASSERT_EQ(region_of(p), owner[i]);
    ASSERT_EQ(static_cast<unsigned char>(p[0]), owner[i] & 0xff);
    for (char *q : again)
      ASSERT_TRUE(q + 64 <= p || q >= p + s);
  }
  ASSERT_EQ(weft_rfree(regs[0]), WEFT_OK); // all 50, recursively
  for (std::size_t i = 1; i < objs.size(); i += 2)
    EXPECT_EQ(weft_region_of(objs[i].first, &out), WEFT_EINVAL);
  void *p = weft_alloc(8, regs[7]);
  EXPECT_EQ(p, nullptr);
}

TEST(RegionAllocator, ReallocAndBulk) {
  weft_rid a = weft_ralloc(WEFT_ROOT_REGION, 0);
  weft_rid b = weft_ralloc(WEFT_ROOT_REGION, 0);
  auto *p = static_cast<int *>(weft_alloc(10 * sizeof(int), a));
  for (int i = 0; i < 10; ++i)
    p[i] = i * i;
  auto *q = static_cast<int *>(weft_realloc(p, 5000 * sizeof(int), b));
  ASSERT_NE(q, nullptr) << weft_last_error();
  EXPECT_EQ(region_of(q), b);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(q[i], i * i);
  weft_rid out;
  EXPECT_EQ(weft_region_of(p, &out), p == q ? WEFT_OK : WEFT_EINVAL);
  void *ptrs[300];
  ASSERT_EQ(weft_balloc(48, a, 300, ptrs), WEFT_OK);
  std::set<void *> distinct(ptrs, ptrs + 300);
  EXPECT_EQ(distinct.size(), 300u);
  for (void *x : ptrs)
    EXPECT_EQ(region_of(x), a);
  EXPECT_EQ(weft_balloc(0, a, 3, ptrs), WEFT_EINVAL);
  EXPECT_EQ(weft_alloc(0, a), nullptr);
  ASSERT_EQ(weft_rfree(a), WEFT_OK);
  ASSERT_EQ(weft_rfree(b), WEFT_OK);
}

TEST(RegionAllocator, ManyRegionsAndObjects) {
  // Pages go back to the pool when their slabs empty: allocating and
  // freeing many regions in a loop keeps working.
  for (int round = 0; round < 20; ++round) {
    weft_rid top = weft_ralloc(WEFT_ROOT_REGION, 0);
    for (int i = 0; i < 200; ++i) {
      weft_rid r = weft_ralloc(top, 1);
      ASSERT_NE(r, 0u);
      for (int k = 0; k < 20; ++k)
        ASSERT_NE(weft_alloc(24 + 8 * std::size_t(k), r), nullptr);
    }
    ASSERT_EQ(weft_rfree(top), WEFT_OK);
  }
}

} // namespace
