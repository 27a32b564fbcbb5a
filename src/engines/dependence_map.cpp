#include "dependence_map.hpp"

#include "../core/error.hpp"
#include "../core/runtime.hpp"

#include <cstdlib>
#include <cstring>

namespace weft {

namespace {
constexpr uint32_t kMinCapacity = 64;
constexpr uint32_t kShrinkAbove = 4096;

bool retired(const task *t) {
  return t->succ_state.load(std::memory_order_acquire) & kSuccClosed;
}

bool entry_dead(const dep_entry &e) {
  for (uint32_t i = 0; i < e.cur_n; ++i)
    if (!retired(e.cur(i)))
      return false;
  for (uint32_t i = 0; i < e.prev_n; ++i)
    if (!retired(e.prev(i)))
      return false;
  return true;
}

void release_mutex_group(mutex_group *g) {
  if (g && g->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete g;
}
} // namespace

dep_domain::dep_domain() { allocate(kMinCapacity); }

dep_domain::~dep_domain() { std::free(slots_); }

void dep_domain::allocate(uint32_t capacity) {
  std::size_t bytes = sizeof(dep_entry) * capacity;
  slots_ = static_cast<dep_entry *>(std::aligned_alloc(64, bytes));
  if (!slots_)
    fatal("out of memory for a dependence map of %u entries", capacity);
  std::memset(static_cast<void *>(slots_), 0, bytes);
  mask_ = capacity - 1;
  shift_ = 64 - __builtin_ctz(capacity);
  used_ = 0;
}

void dep_domain::drop_prev(dep_entry &e, worker &w) {
  for (uint32_t i = 0; i < e.prev_n; ++i)
    w.release_ref(e.prev(i));
  std::free(e.prev_more);
  e.prev_more = nullptr;
  e.prev_one = nullptr;
  e.prev_n = 0;
}

void dep_domain::drop(dep_entry &e, worker &w) {
  for (uint32_t i = 0; i < e.cur_n; ++i)
    w.release_ref(e.cur(i));
  std::free(e.cur_more);
  drop_prev(e, w);
  release_mutex_group(e.mx);
  e = dep_entry{};
}

void dep_domain::rebuild(worker &w) {
  dep_entry *old = slots_;
  uint32_t old_cap = mask_ + 1;
  uint32_t live = 0;
  for (uint32_t i = 0; i < old_cap; ++i) {
    if (i + 4 < old_cap && old[i + 4].addr)
      __builtin_prefetch(old[i + 4].cur_one);
    dep_entry &e = old[i];
    if (!e.addr)
      continue;
    if (entry_dead(e))
      drop(e, w);
    else
      ++live;
  }
  uint32_t cap = kMinCapacity;
  while (cap < live * 4)
    cap *= 2;
  allocate(cap);
  for (uint32_t i = 0; i < old_cap; ++i) {
    if (!old[i].addr)
      continue;
    uint32_t j = slot_of(old[i].addr);
    while (slots_[j].addr)
      j = (j + 1) & mask_;
    slots_[j] = old[i];
  }
  used_ = live;
  std::free(old);
}

void dep_domain::clear(worker &w) {
  if (used_ == 0)
    return;
  uint32_t cap = mask_ + 1;
  for (uint32_t i = 0; i < cap; ++i)
    if (slots_[i].addr)
      drop(slots_[i], w);
  used_ = 0;
  if (cap > kShrinkAbove) {
    std::free(slots_);
    allocate(kMinCapacity);
  }
}

} // namespace weft
