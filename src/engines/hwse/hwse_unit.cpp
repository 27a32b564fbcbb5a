#include "hwse_unit.hpp"

#include "base/backoff.hpp"

#include <cstddef>
#include <thread>

namespace weft::hwse {

namespace {
constexpr backoff_policy kQueueBackoff{64, backoff_policy::kForever};
} // namespace

// The unit was busy (busy_ held `seen`): joins the modelled queue, then
// takes the unit as soon as it is free (test-and-test-and-set: whoever runs
// gets it, so a preempted waiter holds nobody up). Returns the cycles ahead
// of it when it arrived.
uint32_t unit::queue_and_take(uint32_t c, uint32_t seen) {
  const uint32_t ahead =
      (seen ? seen - 1 : 0) + waiting_.fetch_add(c, std::memory_order_relaxed);
  // The holder may have been preempted (more threads than cores): yield
  // after a short spin so that it runs.
  for (backoff w(kQueueBackoff);; w.pause()) {
    uint32_t b = busy_.load(std::memory_order_relaxed);
    if (b == 0 &&
        busy_.compare_exchange_weak(b, c + 1, std::memory_order_acquire,
                                    std::memory_order_relaxed))
      break;
  }
  waiting_.fetch_sub(c, std::memory_order_relaxed);
  return ahead;
}

void unit::wait(primitive p, uint32_t seen) {
  if (uint32_t ahead = queue_and_take(cycles(p), seen)) {
    bump(waits_, 1);
    bump(wait_cycles_, ahead);
  }
}

void unit::take_uncounted() {
  uint32_t seen = 0;
  if (!busy_.compare_exchange_strong(seen, 1, std::memory_order_acquire,
                                     std::memory_order_relaxed))
    queue_and_take(0, seen);
}

uint64_t unit::primitives() const {
  static_assert(
      offsetof(unit, count_) + kHotPrimitiveKinds * sizeof(uint64_t) <= 64,
      "the hot counters share the lock's line");
  uint64_t n = 0;
  for (int i = 0; i < kPrimitiveKinds; ++i)
    n += count_[i].load(std::memory_order_relaxed);
  return n;
}

uint64_t unit::busy_cycles() const {
  uint64_t n = 0;
  for (int i = 0; i < kPrimitiveKinds; ++i)
    n += count_[i].load(std::memory_order_relaxed) *
         cycles(static_cast<primitive>(i));
  return n;
}

} // namespace weft::hwse
