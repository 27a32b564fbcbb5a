#include "hwse_unit.hpp"

#include "../../core/futex.hpp"

#include <thread>

namespace weft::hwse {

// Takes a ticket adding c cycles to the queue, waits for its turn.
uint32_t unit::take(uint64_t c, uint32_t *ahead) {
  const uint64_t old =
      queue_.fetch_add((uint64_t(1) << 32) | c, std::memory_order_relaxed);
  const auto ticket = static_cast<uint32_t>(old >> 32);
  *ahead = static_cast<uint32_t>(old);
  // The holder may have been preempted (more threads than cores): yield
  // after a short spin so that it runs.
  for (int i = 0; serving_.load(std::memory_order_acquire) != ticket; ++i) {
    if (i < 64)
      cpu_relax();
    else
      std::this_thread::yield();
  }
  return ticket;
}

uint32_t unit::arrive(primitive p) {
  uint32_t ahead;
  const uint32_t ticket = take(cycles(p), &ahead);
  if (ahead) {
    bump(waits_, 1);
    bump(wait_cycles_, ahead);
  }
  return ticket;
}

void unit::leave(uint32_t ticket, primitive p) {
  bump(count_[static_cast<int>(p)], 1);
  queue_.fetch_sub(cycles(p), std::memory_order_relaxed);
  serving_.store(ticket + 1, std::memory_order_release);
}

uint64_t unit::primitives() const {
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
