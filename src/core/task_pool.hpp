// Per-worker pools of task-sized blocks. Allocation and freeing by the owner
// are a pointer pop/push; blocks freed by other workers travel back in
// batches of kRemoteBatch through one CAS, so the steady state calls no
// malloc and moves few cache lines.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

inline constexpr std::size_t kBlockSize = 192;
inline constexpr int kSlabBlocks = 64;
inline constexpr int kRemoteBatch = 32;

class task_pool {
public:
  task_pool(uint16_t id, int nworkers);
  ~task_pool();
  task_pool(const task_pool &) = delete;
  task_pool &operator=(const task_pool &) = delete;

  uint16_t id() const { return id_; }

  // Owner thread only.
  void *alloc() {
    if (!free_)
      refill();
    void *b = free_;
    free_ = next(b);
    return b;
  }

  // Owner thread of *this* pool only; `owner` is the pool the block came from.
  void release(void *b, uint16_t owner, std::vector<task_pool *> &pools) {
    if (owner == id_) {
      next(b) = free_;
      free_ = b;
      return;
    }
    release_remote(b, owner, pools);
  }

  // Hand back every block held for other pools (when going idle).
  void flush_remote(std::vector<task_pool *> &pools);

private:
  struct batch {
    void *head = nullptr;
    void *tail = nullptr;
    int count = 0;
  };
  static void *&next(void *b) { return *static_cast<void **>(b); }
  void refill();
  void release_remote(void *b, uint16_t owner, std::vector<task_pool *> &pools);
  void push_remote_chain(void *head, void *tail);

  alignas(64) std::atomic<void *> remote_{nullptr}; // pushed by other workers
  alignas(64) void *free_ = nullptr;
  uint16_t id_;
  std::vector<batch> outgoing_;
  std::vector<void *> slabs_;
};

} // namespace weft
