// The HWSE control FSM as a shared resource: it serves one primitive at a
// time. Each primitive is counted with its cycles from the cost model. A
// request that finds the unit busy waits (in software: spins, then yields)
// and is counted as a contention wait of the cycles of the primitive in the
// unit plus those of the requests already waiting when it arrived (the
// modelled queue; the one in the unit is counted whole, so this is an upper
// bound by less than one primitive). Which waiting request goes next is the
// interconnect's arbitration, left unspecified: the modelled wait does not
// depend on it.
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
      primitive p;
      ~holder() { u.leave(p); }
    } h{*this, (acquire(p), p)};
    return body();
  }

  // Runs body() holding the unit without counting a primitive: software
  // reading the state the unit guards (statistics). Any thread.
  template <class Body> decltype(auto) inspect(Body &&body) {
    struct holder {
      unit &u;
      ~holder() { u.busy_.store(0, std::memory_order_release); }
    } h{(take_uncounted(), *this)};
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

  // The unit's own register set: the bank (work share) it served last and
  // its LOOP_START. Only the holder of the unit (inside serve) uses it.
  struct registers {
    const void *bank = nullptr;
    uint64_t start = 0;
  };
  registers &regs() { return regs_; }

  // Cycles of the primitive in the unit and of the requests waiting now.
  uint32_t queued_cycles() const {
    uint32_t b = busy_.load(std::memory_order_relaxed);
    return (b ? b - 1 : 0) + waiting_.load(std::memory_order_relaxed);
  }

private:
  void acquire(primitive p) {
    // The uncontended path: one CAS here, one store in leave().
    uint32_t seen = 0;
    if (__builtin_expect(!busy_.compare_exchange_strong(
                             seen, cycles(p) + 1, std::memory_order_acquire,
                             std::memory_order_relaxed),
                         0))
      wait(p, seen);
  }
  void wait(primitive p, uint32_t seen);
  uint32_t queue_and_take(uint32_t c, uint32_t seen);
  void take_uncounted(); // for inspect: busy_ = 1, nothing counted
  void leave(primitive p) {
    bump(count_[static_cast<int>(p)], 1);
    busy_.store(0, std::memory_order_release);
  }
  static void bump(std::atomic<uint64_t> &c, uint64_t by) {
    // Only the holder of the unit writes: no read-modify-write needed.
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }

  // One line holds what every primitive touches: the lock, the queue, the
  // register set and the counters of the per-chunk, per-section and
  // per-task primitives; a holder owns it from its CAS to its release.
  //
  // busy_: 0 when free, else 1 + the cycles of the primitive being served
  // (1 alone: a statistics read). waiting_: the cycles of the requests
  // waiting (at most members x 16).
  alignas(64) std::atomic<uint32_t> busy_{0};
  std::atomic<uint32_t> waiting_{0};
  registers regs_;
  // Written by the holder only.
  std::atomic<uint64_t> count_[kPrimitiveKinds] = {};
  std::atomic<uint64_t> waits_{0};
  std::atomic<uint64_t> wait_cycles_{0};
};

} // namespace weft::hwse
