// State kept per worker by an engine (or any part of weft that is not the
// worker itself): one entry per worker id, made on the worker's first use and
// kept until the table dies. Worker ids run from 0 to kMaxWorkers inclusive
// (runtime::new_worker), so the table has kMaxWorkers + 1 entries.
//
// Only worker `id` makes entry `id` (get); any thread may read the entries
// made so far (find, for_each), which are published with release and read
// with acquire: a reader sees a whole entry or none.
#pragma once

#include "core/task.hpp"

#include <atomic>
#include <memory>

namespace weft {

template <class T> class per_worker_table {
public:
  static constexpr int kEntries = kMaxWorkers + 1;

  per_worker_table() : entries_(new std::atomic<T *>[kEntries]()) {}
  ~per_worker_table() {
    for (int i = 0; i < kEntries; ++i)
      delete entries_[i].load(std::memory_order_relaxed);
  }
  per_worker_table(const per_worker_table &) = delete;
  per_worker_table &operator=(const per_worker_table &) = delete;

  // Worker id's entry, made on first use. Only worker id's thread calls it.
  T &get(int id) {
    if (T *p = entries_[id].load(std::memory_order_relaxed))
      return *p;
    auto *p = new T();
    entries_[id].store(p, std::memory_order_release);
    int n = seen_.load(std::memory_order_relaxed);
    while (n <= id &&
           !seen_.compare_exchange_weak(n, id + 1, std::memory_order_release))
      ;
    return *p;
  }

  // Entry id if made, else nullptr (any thread).
  T *find(int id) const { return entries_[id].load(std::memory_order_acquire); }

  // One more than the highest id with an entry (any thread).
  int bound() const { return seen_.load(std::memory_order_acquire); }

  // f(id, entry) for every entry made so far, in id order (any thread).
  template <class F> void for_each(F f) const {
    const int n = bound();
    for (int i = 0; i < n; ++i)
      if (T *p = find(i))
        f(i, *p);
  }

private:
  std::unique_ptr<std::atomic<T *>[]> entries_;
  std::atomic<int> seen_{0};
};

} // namespace weft
