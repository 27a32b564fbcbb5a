// The inline mode's one lock: the hardware unit, which does one thing at a
// time. Test-and-test-and-set; spins briefly, then yields (the holder may
// have been preempted when threads outnumber cores).
#pragma once

#include "../../core/futex.hpp"

#include <atomic>
#include <thread>

namespace weft {

class nexus_unit_lock {
public:
  void lock() {
    for (int i = 0;; ++i) {
      if (!held_.load(std::memory_order_relaxed) &&
          !held_.exchange(true, std::memory_order_acquire))
        return;
      if (i < kSpins)
        cpu_relax();
      else
        std::this_thread::yield();
    }
  }
  void unlock() { held_.store(false, std::memory_order_release); }

private:
  static constexpr int kSpins = 128;
  alignas(64) std::atomic<bool> held_{false};
};

} // namespace weft
