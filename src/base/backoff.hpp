// The one waiting policy of weft: spin (cheap to resume), then yield (other
// threads may need this core when threads outnumber cores), then tell the
// caller to sleep or give up. Every wait for a condition another thread sets
// goes through a backoff; the sleep itself (a futex on the caller's own word,
// with its own announce-then-recheck protocol) stays with the caller.
//
// A policy is a pair of round counts and the longest pause of a spin round.
// Spin round r (from 1) pauses min(2^(r/2), max_pause) times, so a short
// wait resumes within a few cycles and a long one stops hammering the cache
// line.
#pragma once

#include "base/futex.hpp"

#include <thread>

namespace weft {

struct backoff_policy {
  int spins;         // rounds that pause the CPU
  int yields;        // rounds after those that yield; kForever: never sleep
  int max_pause = 1; // pauses in a spin round, at most

  static constexpr int kForever = -1;
};

// The lock of a modelled hardware unit (Nexus++, Picos): held for a short
// operation, but its holder may be preempted when threads outnumber cores.
inline constexpr backoff_policy kUnitLockBackoff{128, backoff_policy::kForever};

class backoff {
public:
  constexpr explicit backoff(backoff_policy p) : p_(p) {}

  // One round of waiting for a condition that did not hold. Returns true
  // after spinning or yielding; false once both phases are spent (then the
  // caller sleeps or gives up, and calls reset() when it wants them again).
  bool pause() {
    const int r = round_;
    if (r < p_.spins) {
      ++round_;
      const int shift = (r + 1) / 2;
      const int n =
          shift < 30 && (1 << shift) < p_.max_pause ? 1 << shift : p_.max_pause;
      for (int i = 0; i < n; ++i)
        cpu_relax();
      return true;
    }
    if (p_.yields == backoff_policy::kForever) {
      std::this_thread::yield();
      return true;
    }
    if (r < p_.spins + p_.yields) {
      ++round_;
      std::this_thread::yield();
      return true;
    }
    return false;
  }

  // The condition made progress: start again from spinning.
  void reset() { round_ = 0; }

  // Rounds waited since the last reset (with kForever yields, counting stops
  // at the first yield).
  int rounds() const { return round_; }

private:
  backoff_policy p_;
  int round_ = 0;
};

} // namespace weft
