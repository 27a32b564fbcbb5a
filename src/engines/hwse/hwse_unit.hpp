// The HWSE control FSM as a shared resource: it serves one primitive at a
// time, in the order the requests arrive (a ticket queue). Each primitive is
// counted with its cycles from the cost model; a request that finds the unit
// busy is counted as a contention wait of the cycles of every primitive in
// the unit or queued ahead of it when it arrived (an upper bound: the one
// being served may be partly done).
#pragma once

#include "hwse_cost_model.hpp"

#include <atomic>
#include <cstdint>

namespace weft::hwse {

class unit {
public:
  // Runs body() as primitive p: waits for the unit, runs body holding it,
  // counts p. body must not use the unit itself. Any thread.
  template <class Body> decltype(auto) serve(primitive p, Body &&body) {
    struct holder {
      unit &u;
      uint32_t ticket;
      primitive p;
      ~holder() { u.leave(ticket, p); }
    } h{*this, arrive(p), p};
    return body();
  }

  // Runs body() holding the unit without counting a primitive: software
  // reading the state the unit guards (statistics). Any thread.
  template <class Body> decltype(auto) inspect(Body &&body) {
    struct holder {
      unit &u;
      uint32_t ticket;
      ~holder() { u.leave_uncounted(ticket); }
    } h{*this, arrive_uncounted()};
    return body();
  }

  // Counters (any thread; exact once the unit is idle).
  uint64_t served(primitive p) const {
    return count_[static_cast<int>(p)].load(std::memory_order_relaxed);
  }
  uint64_t primitives() const;
  uint64_t busy_cycles() const; // sum over primitives of their cycles
  uint64_t waits() const { return waits_.load(std::memory_order_relaxed); }
  uint64_t wait_cycles() const {
    return wait_cycles_.load(std::memory_order_relaxed);
  }
  // Cycles of the primitives in the unit or queued now.
  uint32_t queued_cycles() const {
    return static_cast<uint32_t>(queue_.load(std::memory_order_relaxed));
  }

private:
  uint32_t arrive(primitive p);
  void leave(uint32_t ticket, primitive p);
  uint32_t take(uint64_t cycles, uint32_t *ahead);
  uint32_t arrive_uncounted() {
    uint32_t ahead;
    return take(0, &ahead);
  }
  void leave_uncounted(uint32_t ticket) {
    serving_.store(ticket + 1, std::memory_order_release);
  }
  static void bump(std::atomic<uint64_t> &c, uint64_t by) {
    // Only the holder of the unit writes: no read-modify-write needed.
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }

  // High 32 bits: the next ticket (wraps off the top). Low 32 bits: cycles
  // of the primitives arrived and not yet served (at most members x 16, far
  // below 2^32, so adding to it never carries into the ticket).
  alignas(128) std::atomic<uint64_t> queue_{0};
  std::atomic<uint32_t> serving_{0};
  // Written by the holder only; next to the queue's line.
  alignas(64) std::atomic<uint64_t> count_[kPrimitiveKinds] = {};
  std::atomic<uint64_t> waits_{0};
  std::atomic<uint64_t> wait_cycles_{0};
};

} // namespace weft::hwse
