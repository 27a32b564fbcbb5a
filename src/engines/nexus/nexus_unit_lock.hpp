// The inline mode's one lock: the hardware unit, which does one thing at a
// time. Test-and-test-and-set; spins briefly, then yields (the holder may
// have been preempted when threads outnumber cores).
#pragma once

#include "base/backoff.hpp"

#include <atomic>
#include <thread>

namespace weft {

class nexus_unit_lock {
public:
  void lock() {
    for (backoff b(kUnitLockBackoff);; b.pause())
      if (!held_.load(std::memory_order_relaxed) &&
          !held_.exchange(true, std::memory_order_acquire))
        return;
  }
  void unlock() { held_.store(false, std::memory_order_release); }

private:
  alignas(64) std::atomic<bool> held_{false};
};

} // namespace weft
