// The sw engine's per-parent dependence map: address -> the tasks that last
// accessed it. Only the thread running the parent touches it (dependences
// exist only among siblings), so it takes no locks. An open-addressing table
// (linear probing) of one-cache-line entries; entries whose tasks have all
// retired are dropped when the table fills, so it stays about as large as
// the number of unfinished accesses.
#pragma once

#include "../core/task.hpp"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace weft {

class worker;

// Access classes: tasks of one class on one address form a *stage*; a new
// task joins the current stage if its class is concurrent (in, inoutset,
// mutexinoutset) and equal to the stage's, else it starts a new stage after
// every member of the current one.
enum class access : uint8_t { none = 0, in, out, inoutset, mutexinoutset };

// The lock shared by the members of one mutexinoutset stage.
struct mutex_group {
  std::atomic<int32_t> refs{1};
  std::mutex lock;
  bool held = false;
  std::vector<task *> waiters; // FIFO: served from the front
  std::size_t next_waiter = 0;
  uintptr_t addr = 0;
};

// The mutex groups a task holds while it runs, in address order.
struct mutex_set {
  uint32_t n = 0;
  uint32_t acquired = 0;
  mutex_group *g[1];
};

struct dep_entry {
  uintptr_t addr;       // 0: free slot
  task *cur_one;        // current stage: first member
  task **cur_more;      // current stage: members 1..cur_n-1
  task *prev_one;       // stage before (joiners depend on it): first member
  task **prev_more;     // members 1..prev_n-1
  mutex_group *mx;      // current stage's lock (mutexinoutset stages)
  uint32_t cur_n;
  uint32_t prev_n;
  uint32_t cur_more_cap;
  access kind;

  task *cur(uint32_t i) const { return i == 0 ? cur_one : cur_more[i - 1]; }
  task *prev(uint32_t i) const { return i == 0 ? prev_one : prev_more[i - 1]; }
};
static_assert(sizeof(dep_entry) <= 64);

class dep_domain {
public:
  dep_domain();
  ~dep_domain();
  dep_domain(const dep_domain &) = delete;
  dep_domain &operator=(const dep_domain &) = delete;

  dep_entry *find(uintptr_t addr) {
    for (uint32_t i = slot_of(addr);; i = (i + 1) & mask_) {
      dep_entry &e = slots_[i];
      if (e.addr == addr)
        return &e;
      if (e.addr == 0)
        return nullptr;
    }
  }

  // The entry for addr, created empty (kind none) if absent. May drop dead
  // entries and rehash: pointers to other entries are then invalid.
  dep_entry &find_or_insert(uintptr_t addr, worker &w) {
    if (used_ >= (mask_ + 1) / 2)
      rebuild(w);
    uint32_t i = slot_of(addr);
    for (;; i = (i + 1) & mask_) {
      dep_entry &e = slots_[i];
      if (e.addr == addr)
        return e;
      if (e.addr == 0)
        break;
    }
    dep_entry &e = slots_[i];
    e = dep_entry{};
    e.addr = addr;
    ++used_;
    return e;
  }

  // Release every entry (all children have finished, or no more will come).
  void clear(worker &w);
  uint32_t size() const { return used_; }

  // Drops the map's references to the entry's tasks and frees its storage.
  static void drop(dep_entry &e, worker &w);
  static void drop_prev(dep_entry &e, worker &w);

private:
  uint32_t slot_of(uintptr_t addr) const {
    return static_cast<uint32_t>((addr * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void rebuild(worker &w);
  void allocate(uint32_t capacity);

  dep_entry *slots_ = nullptr;
  uint32_t mask_ = 0;
  uint32_t shift_ = 64;
  uint32_t used_ = 0;
};

} // namespace weft
