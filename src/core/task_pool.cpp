#include "task_pool.hpp"

#include "base/check.hpp"
#include "base/error.hpp"
#include "task.hpp"

#include <atomic>
#include <cstdlib>

namespace weft {

task_pool::task_pool(uint16_t id) : free_(1024), id_(id) {}

task_pool::~task_pool() {
  for (void *s : slabs_)
    std::free(s);
}

void task_pool::refill() {
  batch *b = remote_.exchange(nullptr, std::memory_order_acquire);
  if (b) {
    while (b) {
      WEFT_CHECK(b->n <= kBatchSlots,
                 "pool %u: a returned batch holds %llu "
                 "blocks (at most %llu)",
                 id_, static_cast<unsigned long long>(b->n),
                 static_cast<unsigned long long>(kBatchSlots));
      batch *next = b->next;
      for (uint64_t i = 0; i < b->n; ++i)
        push(std::atomic_ref<void *>(b->block[i])
                 .load(std::memory_order_relaxed));
      push(b);
      b = next;
    }
    return;
  }
  void *slab = std::aligned_alloc(64, kBlockSize * kSlabBlocks);
  if (!slab)
    fatal("out of memory allocating task descriptors");
  slabs_.push_back(slab);
  auto *bytes = static_cast<unsigned char *>(slab);
  for (int i = kSlabBlocks - 1; i >= 0; --i)
    push(bytes + i * kBlockSize);
}

void task_pool::push_remote(batch *b) {
  batch *old = remote_.load(std::memory_order_relaxed);
  do {
    b->next = old;
  } while (!remote_.compare_exchange_weak(old, b, std::memory_order_release,
                                          std::memory_order_relaxed));
}

void task_pool::release_remote(void *blk, uint16_t owner,
                               task_pool *const *pools) {
  WEFT_CHECK(owner != id_ && owner <= kMaxWorkers,
             "pool %u: block of pool %u returned as a remote block", id_,
             owner);
  if (owner >= outgoing_.size())
    outgoing_.resize(owner + 1, nullptr); // a worker started after us
  batch *&q = outgoing_[owner];
  if (!q) {
    q = static_cast<batch *>(blk); // the first block carries the batch
    q->n = 0;
    return;
  }
  // Atomic: the batch is a freed descriptor, and a thief may still read
  // the task's parent and group there (worker::may_steal), which block[0]
  // and block[1] overlay.
  std::atomic_ref<void *>(q->block[q->n++])
      .store(blk, std::memory_order_relaxed);
  if (q->n == kBatchSlots) {
    pools[owner]->push_remote(q);
    q = nullptr;
  }
}

void task_pool::flush_remote(task_pool *const *pools) {
  for (std::size_t o = 0; o < outgoing_.size(); ++o)
    if (batch *q = outgoing_[o]) {
      pools[o]->push_remote(q);
      outgoing_[o] = nullptr;
    }
}

} // namespace weft
