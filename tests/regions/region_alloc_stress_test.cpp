// Allocation outside the structural lock (docs/regions.md, "The
// allocator"): random region trees, one per group, whose tasks run at once
// (1, 2 and 4 threads; flat, 1x2 and 1x2x2), each doing random weft_alloc,
// weft_free, weft_realloc (within and across the group's regions),
// weft_balloc, and weft_ralloc / weft_rfree of leaf regions of its tree, while
// the main program allocates in a region of its own and in one inside group
// 0's tree, which group 0's task allocates in at the same time. Each group's
// record of its live objects is its serial meaning (a group's operations depend
// only on its seed). Inside every operation and after every round: the object's
// region found from its first, middle and last byte is the recorded one, the
// contents survive every other group's operations (no object overlaps
// another live one), no two live objects overlap, each region's byte count
// is the sum of its objects' sizes, and the allocator's bookkeeping holds
// (region_allocator::check). At the end the trees are freed with objects
// inside: no page and no slab stays in use.
#include "regions/region_allocator.hpp"
#include "regions/region_space.hpp"
#include "test_scale.hpp"

#include <weft/regions.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using weft::regions::region_space;

struct live_obj {
  unsigned char *p;
  std::size_t size;
  weft_rid rid;
  unsigned char tag;
};

// One group: a region tree (regions[0] its root) and its objects, touched
// only by the task holding the root.
struct group {
  std::vector<weft_rid> regions;
  std::vector<weft_rid> parent_of; // parallel to regions (root: 0)
  std::vector<live_obj> objs;
  std::mt19937_64 rng;
  std::string bad; // the first failure inside a task (asserts stay on main)
  // Group 0: a region under its root that the main program allocates in
  // too, at the same time (one region from two threads), and the group's
  // objects there.
  weft_rid shared = 0;
  std::vector<live_obj> shared_objs;
};

std::size_t random_size(std::mt19937_64 &g) {
  unsigned k = unsigned(g() % 1000);
  if (k < 800)
    return 1 + g() % 2048; // the slab classes
  if (k < 985)
    return 2049 + g() % 30000; // slab runs
  if (k < 997)
    return 40000 + g() % 400000;                   // long runs
  return (std::size_t(1) << 20) + g() % (3 << 19); // several pages
}

void fill(const live_obj &o) { std::memset(o.p, o.tag, o.size); }

bool intact(const live_obj &o) {
  for (std::size_t i = 0; i < o.size; i += 97)
    if (o.p[i] != o.tag)
      return false;
  return o.p[o.size - 1] == o.tag;
}

// The region of the first, middle and last byte is o.rid.
bool found_right(const live_obj &o) {
  for (std::size_t off : {std::size_t(0), o.size / 2, o.size - 1}) {
    weft_rid where = 0;
    if (weft_region_of(o.p + off, &where) != WEFT_OK || where != o.rid)
      return false;
  }
  return true;
}

void fail(group &g, const char *what, std::size_t i) {
  if (g.bad.empty())
    g.bad = std::string(what) + " (operation " + std::to_string(i) + ")";
}

bool place(group &g, const char *what, std::size_t i, unsigned char *p,
           std::size_t n, weft_rid rid) {
  if (!p) {
    fail(g, what, i);
    return false;
  }
  live_obj o{p, n, rid, static_cast<unsigned char>(g.rng() | 1)};
  fill(o);
  if (!found_right(o)) {
    fail(g, "region of a new object", i);
    return false;
  }
  g.objs.push_back(o);
  return true;
}

int g_ops = 300;

void churn(void **args) {
  auto &g = *static_cast<group *>(args[1]);
  for (int i = 0; i < g_ops && g.bad.empty(); ++i) {
    if (g.shared && g.rng() % 3 == 0) {
      if (g.shared_objs.empty() || g.rng() % 2) {
        std::size_t n = 1 + g.rng() % 3000;
        auto *p = static_cast<unsigned char *>(weft_alloc(n, g.shared));
        if (!p) {
          fail(g, "weft_alloc in the shared region", std::size_t(i));
          break;
        }
        g.shared_objs.push_back(
            {p, n, g.shared, static_cast<unsigned char>(g.rng())});
        fill(g.shared_objs.back());
        if (!found_right(g.shared_objs.back()))
          fail(g, "region of a new object in the shared region",
               std::size_t(i));
      } else {
        std::size_t k = g.rng() % g.shared_objs.size();
        if (!intact(g.shared_objs[k]) ||
            weft_free(g.shared_objs[k].p) != WEFT_OK) {
          fail(g, "weft_free in the shared region", std::size_t(i));
          break;
        }
        g.shared_objs[k] = g.shared_objs.back();
        g.shared_objs.pop_back();
      }
    }
    unsigned op = unsigned(g.rng() % 100);
    weft_rid rid = g.regions[g.rng() % g.regions.size()];
    if (op < 40 || g.objs.empty()) { // alloc
      std::size_t n = random_size(g.rng);
      place(g, "weft_alloc", std::size_t(i),
            static_cast<unsigned char *>(weft_alloc(n, rid)), n, rid);
    } else if (op < 70) { // free
      std::size_t k = g.rng() % g.objs.size();
      if (!intact(g.objs[k]) || !found_right(g.objs[k]) ||
          weft_free(g.objs[k].p) != WEFT_OK) {
        fail(g, "weft_free of an intact object", std::size_t(i));
        break;
      }
      g.objs[k] = g.objs.back();
      g.objs.pop_back();
    } else if (op < 85) { // realloc, maybe to another region
      std::size_t k = g.rng() % g.objs.size();
      live_obj o = g.objs[k];
      std::size_t n = random_size(g.rng);
      if (!intact(o)) {
        fail(g, "an object before weft_realloc", std::size_t(i));
        break;
      }
      auto *q = static_cast<unsigned char *>(weft_realloc(o.p, n, rid));
      if (!q) {
        fail(g, "weft_realloc", std::size_t(i));
        break;
      }
      live_obj moved{q, std::min(n, o.size), rid, o.tag};
      if (!intact(moved)) {
        fail(g, "contents kept by weft_realloc", std::size_t(i));
        break;
      }
      g.objs[k] = g.objs.back();
      g.objs.pop_back();
      place(g, "weft_realloc", std::size_t(i), q, n, rid);
    } else if (op < 95) { // balloc
      int cnt = 1 + int(g.rng() % 12);
      std::size_t n = 1 + g.rng() % 700;
      void *ptrs[12];
      if (weft_balloc(n, rid, cnt, ptrs) != WEFT_OK) {
        fail(g, "weft_balloc", std::size_t(i));
        break;
      }
      for (int j = 0; j < cnt; ++j)
        if (!place(g, "weft_balloc", std::size_t(i),
                   static_cast<unsigned char *>(ptrs[j]), n, rid))
          break;
    } else { // tree change: free a leaf region (objects and all), add one
      std::size_t k = 1 + g.rng() % g.regions.size();
      if (k < g.regions.size() &&
          std::find(g.parent_of.begin(), g.parent_of.end(), g.regions[k]) ==
              g.parent_of.end()) {
        weft_rid gone = g.regions[k];
        if (weft_rfree(gone) != WEFT_OK) {
          fail(g, "weft_rfree of a leaf region", std::size_t(i));
          break;
        }
        std::erase_if(g.objs,
                      [gone](const live_obj &o) { return o.rid == gone; });
        g.regions.erase(g.regions.begin() + std::ptrdiff_t(k));
        g.parent_of.erase(g.parent_of.begin() + std::ptrdiff_t(k));
      }
      weft_rid parent = g.regions[g.rng() % g.regions.size()];
      weft_rid r = weft_ralloc(parent, int(g.rng() % 3));
      if (!r) {
        fail(g, "weft_ralloc", std::size_t(i));
        break;
      }
      g.regions.push_back(r);
      g.parent_of.push_back(parent);
    }
  }
}

void *rid_arg(weft_rid r) { return reinterpret_cast<void *>(uintptr_t(r)); }

TEST(RegionAllocStress, ConcurrentAllocationInRandomTrees) {
  region_space &sp = region_space::get();
  std::mt19937_64 top(0xa110c);
  // Under the sanitizers (scale 0.25) two rounds.
  const int ngroups = 6, rounds = std::max(2, int(8 * weft::test_scale()));
  std::vector<group> gs(ngroups);
  for (int q = 0; q < ngroups; ++q) {
    group &g = gs[std::size_t(q)];
    g.rng.seed(0x5eed + std::size_t(q));
    g.regions.push_back(weft_ralloc(WEFT_ROOT_REGION, int(q % 3)));
    ASSERT_NE(g.regions[0], 0u) << weft_last_error();
    g.parent_of.push_back(WEFT_ROOT_REGION);
    int n = 2 + int(g.rng() % 6);
    for (int i = 0; i < n; ++i) {
      weft_rid parent = g.regions[g.rng() % g.regions.size()];
      weft_rid r = weft_ralloc(parent, int(g.rng() % 3));
      ASSERT_NE(r, 0u) << weft_last_error();
      g.regions.push_back(r);
      g.parent_of.push_back(parent);
    }
  }
  // The main program's own region, allocated in while the tasks run.
  weft_rid mine = weft_ralloc(WEFT_ROOT_REGION, 1);
  ASSERT_NE(mine, 0u);
  // And one inside group 0's tree, which its task allocates in as well.
  weft_rid shared = gs[0].shared = weft_ralloc(gs[0].regions[0], 1);
  ASSERT_NE(shared, 0u);
  std::vector<live_obj> main_objs;
  for (int round = 0; round < rounds; ++round) {
    for (group &g : gs) {
      void *a[] = {rid_arg(g.regions[0]), &g};
      int t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
      ASSERT_EQ(weft_rspawn(churn, 2, a, t), WEFT_OK) << weft_last_error();
    }
    for (int i = 0; i < 200; ++i) {
      if (main_objs.empty() || top() % 100 < 55) {
        std::size_t n = 1 + top() % 3000;
        weft_rid where = i % 2 ? shared : mine;
        auto *p = static_cast<unsigned char *>(weft_alloc(n, where));
        ASSERT_NE(p, nullptr) << weft_last_error();
        main_objs.push_back({p, n, where, static_cast<unsigned char>(top())});
        fill(main_objs.back());
      } else {
        std::size_t k = top() % main_objs.size();
        ASSERT_TRUE(intact(main_objs[k]));
        ASSERT_EQ(weft_free(main_objs[k].p), WEFT_OK) << weft_last_error();
        main_objs[k] = main_objs.back();
        main_objs.pop_back();
      }
    }
    void *root[] = {rid_arg(WEFT_ROOT_REGION)};
    int rt[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
    ASSERT_EQ(weft_wait(root, rt, 1), WEFT_OK) << weft_last_error();

    std::vector<const live_obj *> all;
    for (const live_obj &o : main_objs)
      all.push_back(&o);
    for (group &g : gs) {
      ASSERT_EQ(g.bad, "") << "round " << round;
      for (const live_obj &o : g.objs)
        all.push_back(&o);
      for (const live_obj &o : g.shared_objs)
        all.push_back(&o);
    }
    std::map<weft_rid, uint64_t> bytes;
    for (const live_obj *o : all) {
      ASSERT_TRUE(intact(*o)) << "round " << round << ": an object in region "
                              << o->rid << " was overwritten";
      ASSERT_TRUE(found_right(*o)) << "round " << round;
      weft::regions::object_ref ref = sp.find_object(o->p);
      ASSERT_GE(sp.allocator().object_size(ref), o->size);
      bytes[o->rid] += sp.allocator().object_size(ref);
    }
    std::sort(all.begin(), all.end(),
              [](const live_obj *a, const live_obj *b) { return a->p < b->p; });
    for (std::size_t i = 1; i < all.size(); ++i)
      ASSERT_LE(all[i - 1]->p + all[i - 1]->size, all[i]->p)
          << "round " << round << ": objects overlap";
    std::vector<weft_rid> every{mine, shared};
    for (group &g : gs)
      every.insert(every.end(), g.regions.begin(), g.regions.end());
    for (weft_rid r : every)
      ASSERT_EQ(sp.lookup_region(r)->bytes.load(), bytes[r])
          << "round " << round << ": byte count of region " << r;
    ASSERT_EQ(sp.check_allocator(), "") << "round " << round;
  }
  // rfree frees everything: the trees with their objects inside.
  ASSERT_EQ(weft_rfree(shared), WEFT_OK) << weft_last_error();
  for (group &g : gs)
    ASSERT_EQ(weft_rfree(g.regions[0]), WEFT_OK) << weft_last_error();
  ASSERT_EQ(weft_rfree(mine), WEFT_OK) << weft_last_error();
  ASSERT_EQ(sp.check_allocator(), "");
  EXPECT_EQ(sp.allocator().pages_in_use(), 0u);
  EXPECT_EQ(sp.allocator().slabs_in_use(), 0u);
  for (group &g : gs) {
    for (weft_rid r : g.regions)
      EXPECT_EQ(sp.lookup_region(r), nullptr);
    for (const live_obj &o : g.objs) {
      weft_rid where;
      EXPECT_NE(weft_region_of(o.p, &where), WEFT_OK);
    }
  }
}

} // namespace
