#include "task_pool.hpp"

#include <cstdio>
#include <cstdlib>

namespace weft {

task_pool::task_pool(uint16_t id, int nworkers) : id_(id), outgoing_(nworkers) {}

task_pool::~task_pool() {
  for (void *s : slabs_)
    std::free(s);
}

void task_pool::refill() {
  void *chain = remote_.exchange(nullptr, std::memory_order_acquire);
  if (chain) {
    free_ = chain;
    return;
  }
  void *slab = std::aligned_alloc(64, kBlockSize * kSlabBlocks);
  if (!slab) {
    std::fprintf(stderr, "weft: out of memory allocating task descriptors\n");
    std::abort();
  }
  slabs_.push_back(slab);
  auto *bytes = static_cast<unsigned char *>(slab);
  for (int i = kSlabBlocks - 1; i >= 0; --i) {
    void *b = bytes + i * kBlockSize;
    next(b) = free_;
    free_ = b;
  }
}

void task_pool::push_remote_chain(void *head, void *tail) {
  void *old = remote_.load(std::memory_order_relaxed);
  do {
    next(tail) = old;
  } while (!remote_.compare_exchange_weak(old, head, std::memory_order_release,
                                          std::memory_order_relaxed));
}

void task_pool::release_remote(void *b, uint16_t owner,
                               std::vector<task_pool *> &pools) {
  batch &q = outgoing_[owner];
  next(b) = q.head;
  if (!q.head)
    q.tail = b;
  q.head = b;
  if (++q.count == kRemoteBatch) {
    pools[owner]->push_remote_chain(q.head, q.tail);
    q = batch{};
  }
}

void task_pool::flush_remote(std::vector<task_pool *> &pools) {
  for (std::size_t o = 0; o < outgoing_.size(); ++o) {
    batch &q = outgoing_[o];
    if (q.count) {
      pools[o]->push_remote_chain(q.head, q.tail);
      q = batch{};
    }
  }
}

} // namespace weft
