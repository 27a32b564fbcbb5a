// A per-worker ready deque (Chase-Lev, in the C11 formulation of Le et al.,
// PPoPP'13). The owner pushes and pops at the bottom without atomic
// read-modify-writes except when one item is left; thieves take from the top
// with one CAS. What the owner reads on every push (its copy of bottom, a
// cached top, the array) sits on a line of its own: thieves keep pulling the
// line of bottom_, and a load from it would wait behind the owner's own
// pending store.
#pragma once

#include "base/check.hpp"
#include "base/fence.hpp"
#include "task.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace weft {

class ready_deque {
public:
  explicit ready_deque(int64_t initial_capacity = 1024) {
    array_.store(make_array(initial_capacity), std::memory_order_relaxed);
    capacity_ = initial_capacity;
  }
  ~ready_deque() {
    for (array *a : retired_)
      std::free(a);
    std::free(array_.load(std::memory_order_relaxed));
  }
  ready_deque(const ready_deque &) = delete;
  ready_deque &operator=(const ready_deque &) = delete;

  // Owner only.
  void push(task *t) {
    WEFT_CHECK(t != nullptr, "a null task pushed on a ready deque");
    int64_t b = bottom_local_;
    array *a = array_.load(std::memory_order_relaxed);
    if (b - top_cache_ >= capacity_) {
      top_cache_ = top_.load(std::memory_order_acquire);
      if (b - top_cache_ >= capacity_)
        a = grow(a, top_cache_, b);
    }
    a->slot[b & (capacity_ - 1)].store(t, std::memory_order_relaxed);
    bottom_.store(b + 1, kPublishOrder);
    bottom_local_ = b + 1;
  }

  // Owner only: the most recently pushed task, or nullptr.
  task *pop() {
    int64_t b = bottom_local_ - 1;
    WEFT_CHECK(top_cache_ <= bottom_local_,
               "ready deque: cached top %lld above bottom %lld",
               static_cast<long long>(top_cache_),
               static_cast<long long>(bottom_local_));
    if (b < top_cache_)
      return nullptr; // empty: thieves only ever make it emptier
    array *a = array_.load(std::memory_order_relaxed);
    // Announce the take before looking at top: a seq_cst store then a
    // seq_cst load (the C11 version's relaxed store + fence + relaxed load).
    bottom_.store(b, std::memory_order_seq_cst);
    int64_t t = top_.load(std::memory_order_seq_cst);
    top_cache_ = t;
    if (t > b) {
      bottom_.store(b + 1, kPublishOrder);
      return nullptr;
    }
    bottom_local_ = b;
    task *x = a->slot[b & (capacity_ - 1)].load(std::memory_order_relaxed);
    if (t == b) {
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                        std::memory_order_relaxed))
        x = nullptr;
      bottom_.store(b + 1, kPublishOrder);
      bottom_local_ = b + 1;
      top_cache_ = b + 1; // we or a thief took the last item
    }
    return x;
  }

  // Any thread: the oldest task, or nullptr (empty or lost a race).
  task *steal() {
    return steal_if([](task *) { return true; });
  }

  // Any thread: the oldest task if ok(it) holds, else nullptr (also when
  // empty or a race was lost). ok reads the task before it is taken, while
  // its owner may take, run and recycle it: it may only read fields that
  // are written atomically, and its answer counts only if the take succeeds.
  template <class Ok> task *steal_if(Ok ok) {
    int64_t t = top_.load(std::memory_order_seq_cst);
    int64_t b = bottom_.load(std::memory_order_seq_cst);
    if (t >= b)
      return nullptr;
    array *a = array_.load(std::memory_order_acquire);
    task *x = a->slot[t & a->mask].load(std::memory_order_relaxed);
    if (!ok(x))
      return nullptr;
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed))
      return nullptr;
    return x;
  }

  // Owner only: the index the next push will take (tasks pushed from now on
  // get this index or above while they are in the deque).
  int64_t next_index() const { return bottom_local_; }

  // A racy hint, good enough to pick a victim or decide to sleep.
  bool maybe_nonempty() const {
    return bottom_.load(std::memory_order_seq_cst) >
           top_.load(std::memory_order_seq_cst);
  }
  // Tasks queued, as a racy estimate (for trace counters).
  int64_t size_hint() const {
    int64_t n = bottom_.load(std::memory_order_relaxed) -
                top_.load(std::memory_order_relaxed);
    return n > 0 ? n : 0;
  }

private:
  // The header has a line of its own: the first slots are written by the
  // owner and read by thieves, the header only read.
  struct array {
    alignas(64) int64_t capacity;
    int64_t mask;
    alignas(64) std::atomic<task *> slot[1];
  };

  static array *make_array(int64_t capacity) {
    std::size_t bytes =
        sizeof(array) + (capacity - 1) * sizeof(std::atomic<task *>);
    auto *a = static_cast<array *>(
        std::aligned_alloc(64, (bytes + 63) & ~std::size_t(63)));
    if (!a)
      std::abort();
    a->capacity = capacity;
    a->mask = capacity - 1;
    for (int64_t i = 0; i < capacity; ++i)
      new (&a->slot[i]) std::atomic<task *>(nullptr);
    return a;
  }

  array *grow(array *old, int64_t t, int64_t b) {
    array *a = make_array(old->capacity * 2);
    for (int64_t i = t; i < b; ++i)
      a->slot[i & a->mask].store(
          old->slot[i & old->mask].load(std::memory_order_relaxed),
          std::memory_order_relaxed);
    // Thieves may still read the old array: keep it until the deque dies.
    retired_.push_back(old);
    array_.store(a, std::memory_order_release);
    capacity_ = a->capacity;
    return a;
  }

  alignas(64) std::atomic<int64_t> top_{0};    // written by thieves
  alignas(64) std::atomic<int64_t> bottom_{0}; // written by the owner
  alignas(64) int64_t bottom_local_ = 0;       // the owner's copy of bottom_
  int64_t top_cache_ = 0;                      // <= top_, owner only
  int64_t capacity_ = 0;                       // of array_, owner's copy
  std::atomic<array *> array_{nullptr};
  std::vector<array *> retired_;
};

} // namespace weft
