// omp_lock_t and omp_nest_lock_t (GCC's layouts: a 4-byte word, and a
// 16-byte {word, count, owner}), and the futex lock behind critical and
// atomic. A lock wait is not a task scheduling point: it spins, yields,
// then sleeps.
//
// The lock routines are also exported at OMP_1.0, the OpenMP 2.5 lock ABI
// of binaries built by GCC 4.2 and older: the simple lock is the same
// function at both versions; the 2.5 nest lock is another lock, libgomp's
// 8-byte {owner, count} owned by a thread (not a task).
#include "gomp.hpp"
#include "omp_api.hpp"

#include "base/backoff.hpp"
#include "base/error.hpp"

#include <thread>

namespace weft::gomp {
namespace {
// Critical sections are short: a lock wait spins a while (about 25 us)
// before paying for a futex sleep and wake.
constexpr backoff_policy kLockSpin{1000, 0};

std::atomic<uint32_t> &futex_word(std::atomic<int> &w) {
  return reinterpret_cast<std::atomic<uint32_t> &>(w);
}
} // namespace

// Drepper's futex mutex, after the inline attempt failed.
void lock_word_slow(std::atomic<int> &w) {
  int c = 0;
  for (backoff b(kLockSpin); b.pause();) {
    c = 0;
    if (w.load(std::memory_order_relaxed) == 0 &&
        w.compare_exchange_strong(c, 1, std::memory_order_acquire))
      return;
  }
  if (c != 2)
    c = w.exchange(2, std::memory_order_acquire);
  while (c != 0) {
    futex_wait(futex_word(w), 2);
    c = w.exchange(2, std::memory_order_acquire);
  }
}

void unlock_word_slow(std::atomic<int> &w) { futex_wake(futex_word(w), 1); }

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

// OpenMP 2.5's nest lock (libgomp's omp_nest_lock_25_t): owner is the
// owning thread's number, 0 when free, with kSleepers set while a thread
// may sleep on it (the futex word); count is touched by the owner only.
struct nest_lock_25 {
  std::atomic<int> owner;
  int count;
};
static_assert(sizeof(nest_lock_25) == kOmpNestLock25Size);
constexpr int kSleepers = 1 << 30;

nest_lock_25 &nest_25(void *lock) { return *static_cast<nest_lock_25 *>(lock); }

// This thread's number for the 2.5 nest lock: 1, 2, ... in the order
// threads first take one (no system call; unlike a cached kernel tid it
// stays unique in a fork()ed child).
constinit std::atomic<int> next_thread_number{1};
constinit thread_local int tl_thread_number = 0;
int thread_number(const char *call) {
  int n = tl_thread_number;
  if (n == 0) [[unlikely]] {
    n = next_thread_number.fetch_add(1, std::memory_order_relaxed);
    if (n >= kSleepers)
      fatal("%s (OpenMP 2.5 nest lock, OMP_1.0): more than %d threads have "
            "taken such locks; their owner field cannot number thread %d",
            call, kSleepers - 1, n);
    tl_thread_number = n;
  }
  return n;
}

// Takes the 2.5 nest lock for me if it is free (owner 0); else seen is
// its owner word.
bool try_take_25(nest_lock_25 &l, int me, int &seen) {
  seen = 0;
  if (!l.owner.compare_exchange_strong(seen, me, std::memory_order_acquire))
    return false;
  l.count = 1;
  return true;
}

// Takes the 2.5 nest lock if it is free, or nests it if me holds it: the
// new depth; 0 when another thread holds it.
int try_set_25(nest_lock_25 &l, int me) {
  int o;
  if (try_take_25(l, me, o))
    return 1;
  if ((o & ~kSleepers) == me)
    return ++l.count;
  return 0;
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

// ---- OpenMP 2.5 (OMP_1.0) --------------------------------------------------
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_init_lock)
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_destroy_lock)
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_set_lock)
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_unset_lock)
WEFT_OMP_SAME_AT_OMP_1_0(int, omp_test_lock)

WEFT_OMP_SYMVER(omp_init_nest_lock_25, omp_init_nest_lock, "OMP_1.0");
WEFT_OMP_API void omp_init_nest_lock_25(void *lock) {
  nest_lock_25 &l = nest_25(lock);
  new (&l.owner) std::atomic<int>(0);
  l.count = 0;
}
WEFT_OMP_SYMVER(omp_destroy_nest_lock_25, omp_destroy_nest_lock, "OMP_1.0");
WEFT_OMP_API void omp_destroy_nest_lock_25(void *) {}

WEFT_OMP_SYMVER(omp_set_nest_lock_25, omp_set_nest_lock, "OMP_1.0");
WEFT_OMP_API void omp_set_nest_lock_25(void *lock) {
  nest_lock_25 &l = nest_25(lock);
  const int me = thread_number("omp_set_nest_lock");
  if (try_set_25(l, me))
    return;
  int o;
  for (backoff b(kLockSpin); b.pause();)
    if (l.owner.load(std::memory_order_relaxed) == 0 && try_take_25(l, me, o))
      return;
  // Sleep on the owner word, marked kSleepers. A thread that takes the lock
  // after a sleep keeps the mark (others may still sleep), as Drepper's
  // mutex keeps its state 2.
  for (;;) {
    o = l.owner.load(std::memory_order_relaxed);
    if (o == 0) {
      if (l.owner.compare_exchange_weak(o, me | kSleepers,
                                        std::memory_order_acquire)) {
        l.count = 1;
        return;
      }
      continue;
    }
    if (!(o & kSleepers) && !l.owner.compare_exchange_weak(
                                o, o | kSleepers, std::memory_order_relaxed))
      continue;
    futex_wait(futex_word(l.owner), static_cast<uint32_t>(o | kSleepers));
  }
}

WEFT_OMP_SYMVER(omp_unset_nest_lock_25, omp_unset_nest_lock, "OMP_1.0");
WEFT_OMP_API void omp_unset_nest_lock_25(void *lock) {
  nest_lock_25 &l = nest_25(lock);
  if (--l.count == 0 &&
      (l.owner.exchange(0, std::memory_order_release) & kSleepers))
    futex_wake(futex_word(l.owner), 1);
}

WEFT_OMP_SYMVER(omp_test_nest_lock_25, omp_test_nest_lock, "OMP_1.0");
WEFT_OMP_API int omp_test_nest_lock_25(void *lock) {
  return try_set_25(nest_25(lock), thread_number("omp_test_nest_lock"));
}
