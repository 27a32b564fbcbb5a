// The task pool's remote return: blocks freed by other pools travel home in
// batches and are handed out again by their own pool before it allocates
// anything new; concurrent returns from 1, 2 and 4 threads lose no block and
// duplicate none.
#include "core/task_pool.hpp"

#include "test_scale.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <set>
#include <thread>
#include <vector>

namespace weft {
namespace {

// n pools, pools[i]->id == i, as the runtime's table.
struct pools {
  explicit pools(int n) {
    for (int i = 0; i < n; ++i)
      own.push_back(std::make_unique<task_pool>(static_cast<uint16_t>(i)));
    for (auto &p : own)
      table.push_back(p.get());
  }
  task_pool *operator[](int i) { return own[i].get(); }
  std::vector<std::unique_ptr<task_pool>> own;
  std::vector<task_pool *> table;
};

TEST(TaskPool, OwnBlocksComeBackLastInFirstOut) {
  pools p(1);
  void *a = p[0]->alloc();
  void *b = p[0]->alloc();
  EXPECT_NE(a, b);
  p[0]->release(b, 0, p.table.data());
  p[0]->release(a, 0, p.table.data());
  EXPECT_EQ(p[0]->alloc(), a);
  EXPECT_EQ(p[0]->alloc(), b);
}

TEST(TaskPool, BlocksAreDistinctAndAligned) {
  pools p(1);
  std::set<void *> seen;
  for (int i = 0; i < 10 * kSlabBlocks; ++i) {
    void *b = p[0]->alloc();
    ASSERT_TRUE(seen.insert(b).second) << "block handed out twice";
    ASSERT_EQ(reinterpret_cast<uintptr_t>(b) % 64, 0u);
  }
}

// Pool 0 allocates whole slabs, pool 1 frees every block: once pool 1 has
// flushed, pool 0's next allocations are exactly those blocks again (no new
// slab while returned blocks wait).
TEST(TaskPool, RemoteBlocksReturnHomeBeforeNewSlabs) {
  pools p(2);
  const int n = 7 * kSlabBlocks;
  std::vector<void *> blocks;
  for (int i = 0; i < n; ++i)
    blocks.push_back(p[0]->alloc());
  for (void *b : blocks)
    p[1]->release(b, 0, p.table.data());
  p[1]->flush_remote(p.table.data());
  std::set<void *> want(blocks.begin(), blocks.end()), got;
  for (int i = 0; i < n; ++i)
    got.insert(p[0]->alloc());
  EXPECT_EQ(got, want);
}

// Blocks held back in an unflushed batch are not lost: flush_remote sends
// them; a pool with nothing outgoing flushes nothing.
TEST(TaskPool, PartialBatchTravelsOnFlush) {
  pools p(2);
  std::vector<void *> blocks;
  for (int i = 0; i < kSlabBlocks; ++i)
    blocks.push_back(p[0]->alloc());
  for (int i = 0; i < 3; ++i)
    p[1]->release(blocks[i], 0, p.table.data());
  p[1]->flush_remote(p.table.data());
  p[1]->flush_remote(p.table.data());
  std::set<void *> got;
  for (int i = 0; i < 3; ++i)
    got.insert(p[0]->alloc());
  EXPECT_EQ(got, std::set<void *>(blocks.begin(), blocks.begin() + 3));
}

// Pool 0's thread allocates the next round's blocks while k other threads,
// each with its own pool, free the current round's (so pool 0 takes returned
// batches while they are being pushed). Every block carries its holder's tag
// in all its bytes, checked before it is freed: a block handed out twice, or
// written by the pool while held, shows as a wrong tag. Blocks are not lost:
// the pool never holds more than two rounds' worth plus one slab.
void fill(void *b, uint32_t tag) {
  auto *w = static_cast<uint32_t *>(b);
  for (std::size_t i = 0; i < kBlockSize / sizeof(uint32_t); ++i)
    w[i] = tag;
}
bool holds(void *b, uint32_t tag) {
  auto *w = static_cast<uint32_t *>(b);
  for (std::size_t i = 0; i < kBlockSize / sizeof(uint32_t); ++i)
    if (w[i] != tag)
      return false;
  return true;
}

void concurrent_return(int k) {
  const int rounds = static_cast<int>(200 * test_scale()) + 5;
  const int per_thread = 3 * kSlabBlocks + 5;
  pools p(k + 1);
  uint32_t next_tag = 1;
  std::set<void *> distinct;
  auto allocate_round =
      [&](std::vector<std::vector<std::pair<void *, uint32_t>>> &out) {
        for (int j = 0; j < k; ++j)
          for (int i = 0; i < per_thread; ++i) {
            void *b = p[0]->alloc();
            fill(b, next_tag);
            out[j].push_back({b, next_tag++});
            distinct.insert(b);
          }
      };
  std::vector<std::vector<std::pair<void *, uint32_t>>> cur(k), next(k);
  allocate_round(cur);
  std::atomic<int> bad{0};
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::thread> th;
    for (int j = 0; j < k; ++j)
      th.emplace_back([&, j] {
        for (auto [b, tag] : cur[j]) {
          if (!holds(b, tag))
            bad.fetch_add(1);
          p[j + 1]->release(b, 0, p.table.data());
        }
        p[j + 1]->flush_remote(p.table.data());
      });
    allocate_round(next);
    for (auto &t : th)
      t.join();
    ASSERT_EQ(bad.load(), 0) << "a block changed while held (round " << r
                             << ", " << k << " returning threads)";
    std::swap(cur, next);
    for (auto &v : next)
      v.clear();
  }
  const std::size_t per_round = static_cast<std::size_t>(per_thread) * k;
  EXPECT_LE(distinct.size(), 2 * per_round + kSlabBlocks)
      << "returned blocks were not reused: some were lost";
}

TEST(TaskPoolStress, ConcurrentReturnOneThread) { concurrent_return(1); }
TEST(TaskPoolStress, ConcurrentReturnTwoThreads) { concurrent_return(2); }
TEST(TaskPoolStress, ConcurrentReturnFourThreads) { concurrent_return(4); }

} // namespace
} // namespace weft
