// The place arena's small blocks (src/places/arena.cpp): exact-size lists
// of released blocks in front of free ranges that coalesce. Random
// sequences of alloc_small/free_small (and extents mixed in) checked
// against a model after every few steps: blocks inside the arena and never
// overlapping, every chunk's bytes accounted for (live blocks + listed
// blocks + free ranges + the bump rest), free ranges never side by side in
// a chunk, used() equal to the model's live bytes, the lists within their
// cap, the footprint bounded by the peak of live bytes; at the end
// everything is given back once the lists are merged. Then the lists'
// order (exact size first, merged before a new chunk or extent), the case
// the per-size free lists without merging got wrong (memory released as
// one size not reused by another) and a stress of 1, 2 and 4 threads on
// one arena.
#include "places/arena.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <vector>

namespace {

using weft::places::arena;
constexpr std::size_t kCap = std::size_t(256) << 20;
constexpr std::size_t kChunk = std::size_t(1) << 20;

std::uint64_t seed_base() {
  const char *s = std::getenv("WEFT_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261127;
}

std::size_t round64(std::size_t n) { return (n + 63) & ~std::size_t(63); }

// A size: mostly small objects, some stores up to 64 KiB, a few up to the
// chunks' limit and past it (an extent of its own).
std::size_t random_size(std::mt19937_64 &rng) {
  const unsigned k = unsigned(rng() % 100);
  std::size_t words;
  if (k < 70)
    words = 1 + rng() % 64;
  else if (k < 95)
    words = 1 + rng() % 8192;
  else if (k < 99)
    words = 1 + rng() % (arena::kOwnExtentBytes / 8);
  else
    words = arena::kOwnExtentBytes / 8 + 1 + rng() % 16384;
  return 8 * words;
}

struct block {
  std::size_t bytes;
  bool extent; // alloc_extent, not alloc_small
};

// The model's check of the arena's whole state.
void check_state(const arena &a, const std::map<std::size_t, block> &live,
                 std::size_t live_bytes) {
  ASSERT_EQ(a.used(), live_bytes);
  arena::small_view v = a.view_small();
  std::size_t held = 0, listed = 0;
  for (const auto &l : v.listed) {
    listed += l.second;
    ASSERT_TRUE(l.second >= 8 && l.second <= arena::kListMaxBytes &&
                l.second % 8 == 0)
        << "a listed block of " << l.second << " bytes";
  }
  ASSERT_LE(listed, arena::kListCapBytes);
  for (std::size_t i = 0; i < v.free.size(); ++i) {
    held += v.free[i].second;
    ASSERT_GT(v.free[i].second, 0u);
    if (i) {
      ASSERT_LE(v.free[i - 1].first + v.free[i - 1].second, v.free[i].first);
    }
  }
  ASSERT_EQ(a.held_free(), held + listed + (v.bump_end - v.bump));
  ASSERT_EQ(a.capacity(), a.used() + a.free_bytes() + a.held_free());
  auto fr = v.free.begin();
  auto ls = v.listed.begin();
  auto lv = live.begin();
  for (const auto &c : v.chunks) {
    const std::size_t start = c[0], end = c[1];
    ASSERT_LT(start, end);
    // Live small blocks, listed blocks and free ranges tile the chunk up
    // to its bump pointer (its end when not current); the bump rest
    // follows. Free ranges are merged (never side by side); a listed block
    // is not merged until the lists are, and keeps its chunk.
    const bool current = v.bump_end != v.bump && v.bump >= start &&
                         v.bump < end && v.bump_end == end;
    const std::size_t filled = current ? v.bump : end;
    std::size_t at = start, in_live = 0, in_listed = 0;
    bool last_free = false;
    while (at < filled) {
      while (lv != live.end() && lv->first < at)
        ++lv;
      if (fr != v.free.end() && fr->first == at) {
        ASSERT_FALSE(last_free) << "two free ranges side by side at " << at;
        at += fr->second;
        ++fr;
        last_free = true;
      } else if (ls != v.listed.end() && ls->first == at) {
        at += ls->second;
        in_listed += ls->second;
        ++ls;
        last_free = false;
      } else if (lv != live.end() && lv->first == at && !lv->second.extent &&
                 lv->second.bytes <= arena::kOwnExtentBytes) {
        at += lv->second.bytes;
        in_live += lv->second.bytes;
        ++lv;
        last_free = false;
      } else {
        FAIL() << "chunk [" << start << ", " << end << ") byte " << at
               << " is neither a live block nor a listed one nor a free range";
      }
    }
    ASSERT_EQ(at, filled) << "a block or free range crosses the chunk's end";
    ASSERT_FALSE(current && last_free)
        << "a free range ends at the bump pointer";
    ASSERT_EQ(in_live, c[2]);
    ASSERT_TRUE(current || in_live > 0 || in_listed > 0)
        << "a chunk without live or listed blocks is kept";
  }
  ASSERT_EQ(fr, v.free.end()) << "a free range outside every chunk";
  ASSERT_EQ(ls, v.listed.end()) << "a listed block outside every chunk";
}

// Runs `steps` random allocations and frees on a fresh arena; returns the
// largest footprint (bytes taken from the extent allocator) over the peak
// of live bytes seen so far, past 16 MiB of it.
double random_run(std::uint64_t seed, int steps, std::size_t target) {
  arena a(0, kCap);
  std::mt19937_64 rng(seed);
  std::map<std::size_t, block> live;
  std::vector<std::size_t> order; // live offsets, for a random pick
  std::size_t live_bytes = 0, peak = 0;
  double worst = 0;
  for (int s = 0; s < steps; ++s) {
    // Towards `target` live bytes: more allocations below it.
    const bool alloc =
        live.empty() || rng() % 100 < (live_bytes < target ? 60u : 40u);
    if (alloc) {
      const bool extent = rng() % 50 == 0;
      const std::size_t bytes = random_size(rng);
      char *p = extent ? a.alloc_extent(bytes) : a.alloc_small(bytes);
      EXPECT_NE(p, nullptr) << "step " << s << ": " << bytes << " bytes";
      if (!p)
        return 0;
      const std::size_t off = std::size_t(p - a.base());
      const std::size_t taken =
          extent || bytes > arena::kOwnExtentBytes ? round64(bytes) : bytes;
      EXPECT_EQ(off % 8, 0u);
      EXPECT_LE(off + taken, a.capacity());
      auto next = live.lower_bound(off);
      if (next != live.end()) {
        EXPECT_LE(off + taken, next->first) << "overlaps a live block";
      }
      if (next != live.begin()) {
        auto prev = std::prev(next);
        std::size_t pe =
            prev->first +
            (prev->second.extent || prev->second.bytes > arena::kOwnExtentBytes
                 ? round64(prev->second.bytes)
                 : prev->second.bytes);
        EXPECT_LE(pe, off) << "overlaps a live block";
      }
      live[off] = {bytes, extent};
      order.push_back(off);
      live_bytes += taken;
      peak = std::max(peak, live_bytes);
    } else {
      const std::size_t i = rng() % order.size();
      const std::size_t off = order[i];
      order[i] = order.back();
      order.pop_back();
      const block b = live[off];
      live.erase(off);
      if (b.extent) {
        a.free_extent(a.base() + off, b.bytes, true);
        live_bytes -= round64(b.bytes);
      } else {
        a.free_small(a.base() + off, b.bytes);
        live_bytes -=
            b.bytes > arena::kOwnExtentBytes ? round64(b.bytes) : b.bytes;
      }
    }
    if (s % 97 == 0) {
      check_state(a, live, live_bytes);
      if (::testing::Test::HasFatalFailure())
        return 0;
    }
    const std::size_t footprint = a.capacity() - a.free_bytes();
    if (peak >= (std::size_t(16) << 20))
      worst = std::max(worst, double(footprint) / double(peak));
  }
  check_state(a, live, live_bytes);
  // Everything back, in random order.
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t off : order) {
    const block b = live[off];
    if (b.extent)
      a.free_extent(a.base() + off, b.bytes, true);
    else
      a.free_small(a.base() + off, b.bytes);
  }
  live.clear();
  check_state(a, live, 0);
  EXPECT_EQ(a.used(), 0u);
  a.trim(); // the lists merged: nothing but the current chunk is kept
  check_state(a, live, 0);
  EXPECT_TRUE(a.view_small().listed.empty());
  EXPECT_LE(a.held_free(), kChunk) << "more than the current chunk kept";
  EXPECT_TRUE(a.view_small().free.empty());
  EXPECT_LE(a.view_small().chunks.size(), 1u);
  EXPECT_GE(a.free_bytes(), a.capacity() - kChunk);
  return worst;
}

TEST(PlaceArena, RandomAllocFreeAgainstAModel) {
  const std::uint64_t base = seed_base();
  double worst = 0;
  for (std::uint64_t i = 0; i < 6; ++i) {
    SCOPED_TRACE("seed " + std::to_string(base + i));
    // Live sets of 24 and 48 MiB around which the program churns.
    worst = std::max(worst, random_run(base + i, 20000,
                                       std::size_t(24 + 24 * (i % 2)) << 20));
    if (HasFatalFailure())
      return;
  }
  std::printf("largest footprint / peak live bytes: %.3f\n", worst);
  // Fragmentation bounded: the arena never takes more than 1.5 times the
  // most that was live (and 16 MiB or more was).
  EXPECT_LE(worst, 1.5);
}

// Memory released as blocks of one size serves blocks of another: 40 000
// blocks of 48 bytes made and released, then 16 000 of 120 bytes (as
// many bytes) take no new chunk; with per-size free lists they took 2 more
// MiB. Then a whole chunk's blocks released go back to the extents.
TEST(PlaceArena, ReleasedBlocksServeOtherSizes) {
  arena a(0, kCap);
  std::vector<char *> v;
  for (int i = 0; i < 40000; ++i)
    v.push_back(a.alloc_small(48));
  const std::size_t footprint = a.capacity() - a.free_bytes();
  std::mt19937_64 rng(seed_base());
  std::shuffle(v.begin(), v.end(), rng);
  for (char *p : v)
    a.free_small(p, 48);
  EXPECT_EQ(a.used(), 0u);
  v.clear();
  for (int i = 0; i < 16000; ++i)
    v.push_back(a.alloc_small(120));
  EXPECT_LE(a.capacity() - a.free_bytes(), footprint);
  for (char *p : v)
    a.free_small(p, 120);
  EXPECT_EQ(a.used(), 0u);
  a.trim();
  EXPECT_LE(a.view_small().chunks.size(), 1u);
  EXPECT_GE(a.free_bytes(), a.capacity() - kChunk);
}

// Threads making and freeing on one arena at once, each block filled with
// its owner's mark and checked before it is freed (an overlap between two
// threads' blocks would overwrite a mark); at the end all is given back.
TEST(PlaceArena, ThreadsAllocAndFreeAtOnce) {
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    arena a(0, kCap);
    std::vector<std::thread> ts;
    std::vector<int> bad(std::size_t(threads), 0);
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        std::mt19937_64 rng(seed_base() * 8 + std::uint64_t(t));
        struct made {
          std::uint64_t *p;
          std::size_t bytes;
          std::uint64_t mark;
        };
        std::vector<made> mine;
        std::uint64_t mark = std::uint64_t(t + 1) << 40;
        for (int s = 0; s < 20000; ++s) {
          if (mine.empty() || rng() % 100 < 52) {
            std::size_t bytes = 8 * (1 + rng() % (rng() % 10 ? 32 : 2048));
            auto *p = reinterpret_cast<std::uint64_t *>(a.alloc_small(bytes));
            if (!p) {
              ++bad[std::size_t(t)];
              return;
            }
            ++mark;
            for (std::size_t w = 0; w < bytes / 8; ++w)
              p[w] = mark;
            mine.push_back({p, bytes, mark});
          } else {
            std::size_t i = rng() % mine.size();
            auto [p, bytes, m] = mine[i];
            mine[i] = mine.back();
            mine.pop_back();
            for (std::size_t w = 0; w < bytes / 8; ++w)
              if (p[w] != m)
                ++bad[std::size_t(t)];
            a.free_small(reinterpret_cast<char *>(p), bytes);
          }
        }
        for (auto [p, bytes, m] : mine) {
          for (std::size_t w = 0; w < bytes / 8; ++w)
            if (p[w] != m)
              ++bad[std::size_t(t)];
          a.free_small(reinterpret_cast<char *>(p), bytes);
        }
      });
    for (auto &t : ts)
      t.join();
    for (int t = 0; t < threads; ++t)
      EXPECT_EQ(bad[std::size_t(t)], 0) << "thread " << t;
    EXPECT_EQ(a.used(), 0u);
    EXPECT_LE(a.view_small().listed.size() * 8, arena::kListCapBytes);
    a.trim();
    EXPECT_TRUE(a.view_small().free.empty());
    EXPECT_TRUE(a.view_small().listed.empty());
    EXPECT_LE(a.view_small().chunks.size(), 1u);
  }
}

// A released block of up to kListMaxBytes serves the next block of its
// size (last released, first served) and no other size until the lists
// are merged; merged, it serves a smaller block (best fit, split).
TEST(PlaceArena, ExactSizeListsFirst) {
  arena a(0, kCap);
  char *x = a.alloc_small(32);
  char *y = a.alloc_small(32);
  char *z = a.alloc_small(32);
  ASSERT_TRUE(x && y && z);
  a.free_small(x, 32);
  a.free_small(y, 32);
  EXPECT_EQ(a.alloc_small(32), y);
  a.free_small(y, 32);
  char *w = a.alloc_small(16); // not y or x: from the bump chunk
  EXPECT_EQ(w, z + 32);
  EXPECT_EQ(a.view_small().listed.size(), 2u);
  EXPECT_TRUE(a.view_small().free.empty());
  a.trim(); // x and y merge into one free range [x, x + 64)
  auto v = a.view_small();
  EXPECT_TRUE(v.listed.empty());
  ASSERT_EQ(v.free.size(), 1u);
  EXPECT_EQ(v.free[0].first, std::size_t(x - a.base()));
  EXPECT_EQ(v.free[0].second, 64u);
  EXPECT_EQ(a.alloc_small(16), x);
  EXPECT_EQ(a.used(), 32u + 16 + 16);
  // A block above the lists' limit is merged at once.
  char *big = a.alloc_small(arena::kListMaxBytes + 8);
  a.free_small(big, arena::kListMaxBytes + 8);
  EXPECT_TRUE(a.view_small().listed.empty());
}

// Listed blocks keep their chunks from the extents until the lists merge:
// an extent that finds no room merges them first. A 2 MiB arena filled
// with 32-byte blocks, all released in random order (some stay listed, in
// old chunks), then serves an extent of all but the current chunk.
TEST(PlaceArena, ExtentMissMergesTheLists) {
  arena a(0, std::size_t(2) << 20);
  std::vector<char *> v;
  while (char *p = a.alloc_small(32))
    v.push_back(p);
  ASSERT_GT(v.size(), kChunk / 32);
  std::mt19937_64 rng(seed_base());
  std::shuffle(v.begin(), v.end(), rng);
  for (char *p : v)
    a.free_small(p, 32);
  EXPECT_EQ(a.used(), 0u);
  const auto s = a.view_small();
  ASSERT_FALSE(s.listed.empty());
  ASSERT_LT(s.listed.front().first, a.capacity() - kChunk)
      << "no listed block holds an old chunk: the test proves nothing";
  char *e = a.alloc_extent(a.capacity() - kChunk);
  EXPECT_NE(e, nullptr);
  EXPECT_TRUE(a.view_small().listed.empty());
  if (e)
    a.free_extent(e, a.capacity() - kChunk, true);
  EXPECT_LE(a.view_small().chunks.size(), 1u);
}

} // namespace
