// omp_lock_t and omp_nest_lock_t (GCC's layouts: a 4-byte word, and a
// 16-byte {word, count, owner}), and the futex lock behind critical and
// atomic. A lock wait is not a task scheduling point: it spins, yields,
// then sleeps.
#include "gomp.hpp"
#include "omp_api.hpp"

#include "base/backoff.hpp"
#include "base/error.hpp"

#include <thread>

namespace weft::gomp {

// Drepper's futex mutex, after the inline attempt failed.
void lock_word_slow(std::atomic<int> &w) {
  int c = 0;
  // Critical sections are short: spin a while (about 25 us) before paying
  // for a futex sleep and wake.
  for (backoff b({1000, 0}); b.pause();) {
    c = 0;
    if (w.load(std::memory_order_relaxed) == 0 &&
        w.compare_exchange_strong(c, 1, std::memory_order_acquire))
      return;
  }
  if (c != 2)
    c = w.exchange(2, std::memory_order_acquire);
  while (c != 0) {
    futex_wait(reinterpret_cast<std::atomic<uint32_t> &>(w), 2);
    c = w.exchange(2, std::memory_order_acquire);
  }
}

void unlock_word_slow(std::atomic<int> &w) {
  futex_wake(reinterpret_cast<std::atomic<uint32_t> &>(w), 1);
}

namespace {
struct nest_lock {
  std::atomic<int> word;
  int count; // only the owner touches it
  // Read by every task that tries the lock: only its owner can find
  // itself there, so relaxed order suffices.
  std::atomic<void *> owner;
};
static_assert(sizeof(nest_lock) == kOmpNestLockSize);
static_assert(sizeof(std::atomic<int>) == kOmpLockSize);

std::atomic<int> &word(void *lock) {
  return *static_cast<std::atomic<int> *>(lock);
}
nest_lock &nest(void *lock) { return *static_cast<nest_lock *>(lock); }

// A nested lock is owned by a task (OpenMP 3.0 and later).
void *owner_id() {
  context c = ctx();
  return c.w->current();
}
} // namespace
} // namespace weft::gomp

using namespace weft;
using namespace weft::gomp;

WEFT_OMP_API void omp_init_lock(void *lock) { new (lock) std::atomic<int>(0); }
WEFT_OMP_API void omp_init_lock_with_hint(void *lock, int) {
  omp_init_lock(lock);
}
WEFT_OMP_API void omp_destroy_lock(void *) {}
WEFT_OMP_API void omp_set_lock(void *lock) { lock_word(word(lock)); }
WEFT_OMP_API void omp_unset_lock(void *lock) { unlock_word(word(lock)); }
WEFT_OMP_API int omp_test_lock(void *lock) {
  int c = 0;
  return word(lock).compare_exchange_strong(c, 1, std::memory_order_acquire);
}

WEFT_OMP_API void omp_init_nest_lock(void *lock) {
  nest_lock &l = nest(lock);
  new (&l.word) std::atomic<int>(0);
  l.count = 0;
  new (&l.owner) std::atomic<void *>(nullptr);
}
WEFT_OMP_API void omp_init_nest_lock_with_hint(void *lock, int) {
  omp_init_nest_lock(lock);
}
WEFT_OMP_API void omp_destroy_nest_lock(void *) {}
WEFT_OMP_API void omp_set_nest_lock(void *lock) {
  nest_lock &l = nest(lock);
  void *me = owner_id();
  if (l.owner.load(std::memory_order_relaxed) == me) {
    ++l.count;
    return;
  }
  lock_word(l.word);
  l.owner.store(me, std::memory_order_relaxed);
  l.count = 1;
}
WEFT_OMP_API void omp_unset_nest_lock(void *lock) {
  nest_lock &l = nest(lock);
  if (--l.count == 0) {
    l.owner.store(nullptr, std::memory_order_relaxed);
    unlock_word(l.word);
  }
}
WEFT_OMP_API int omp_test_nest_lock(void *lock) {
  nest_lock &l = nest(lock);
  void *me = owner_id();
  if (l.owner.load(std::memory_order_relaxed) == me)
    return ++l.count;
  int c = 0;
  if (!l.word.compare_exchange_strong(c, 1, std::memory_order_acquire))
    return 0;
  l.owner.store(me, std::memory_order_relaxed);
  l.count = 1;
  return 1;
}
