// Per-worker pools of task-sized blocks. The free blocks of a pool are an
// array of pointers, so allocation is a pop that can prefetch the blocks a
// few allocations ahead (an intrusive list would make every allocation wait
// for a cache miss on a block another core freed). Blocks freed by other
// workers travel home in batches: the batch is written into one of the freed
// blocks and handed over with one CAS.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

inline constexpr std::size_t kBlockSize = 192;
inline constexpr int kSlabBlocks = 64;

class task_pool {
public:
  explicit task_pool(uint16_t id);
  ~task_pool();
  task_pool(const task_pool &) = delete;
  task_pool &operator=(const task_pool &) = delete;

  // Owner thread only.
  void *alloc() {
    if (n_ == 0)
      refill();
    void *b = free_[--n_];
    if (n_ >= kPrefetchAhead)
      __builtin_prefetch(free_[n_ - kPrefetchAhead], 1);
    return b;
  }

  // Owner thread of *this* pool only; `owner` is the pool the block came from.
  void release(void *b, uint16_t owner, task_pool *const *pools) {
    if (owner == id_)
      push(b);
    else
      release_remote(b, owner, pools);
  }

  // Hand back every block held for other pools (when going idle).
  void flush_remote(task_pool *const *pools);

private:
  static constexpr std::size_t kPrefetchAhead = 4;
  struct batch {
    batch *next;
    uint64_t n;
    void *block[(kBlockSize - 16) / sizeof(void *)];
  };
  static_assert(sizeof(batch) <= kBlockSize);
  static constexpr uint64_t kBatchSlots = sizeof(batch::block) / sizeof(void *);

  void push(void *b) {
    if (n_ == free_.size())
      free_.resize(free_.size() * 2);
    free_[n_++] = b;
  }
  void refill();
  void release_remote(void *b, uint16_t owner, task_pool *const *pools);
  void push_remote(batch *b);

  alignas(64) std::atomic<batch *> remote_{nullptr}; // from other workers
  alignas(64) std::vector<void *> free_;
  std::size_t n_ = 0;
  uint16_t id_;
  std::vector<batch *> outgoing_; // per owner: the batch being filled
  std::vector<void *> slabs_;
};

} // namespace weft
