// A Nexus IO FIFO: bounded, of any depth >= 1, in tasks. try_push answers
// false when full and try_pop false when empty; neither ever blocks. The
// concurrent operations are safe for any number of producers and consumers
// (a sequence number per cell, as in Vyukov's bounded queue, but counting
// half-steps so that a depth of 1 works: a cell at position p is free for
// the producer at 2p and full for the consumer at 2p + 1); the *_exclusive ones
// are for a caller that holds the unit's lock and so is the FIFO's only user.
// The FIFO records its peak occupancy.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace weft {

template <class T> class nexus_fifo {
public:
  explicit nexus_fifo(uint32_t depth) : cells_(new cell[depth]), depth_(depth) {
    for (uint32_t i = 0; i < depth; ++i)
      cells_[i].seq.store(2 * uint64_t(i), std::memory_order_relaxed);
  }

  uint32_t depth() const { return depth_; }

  bool try_push(const T &v) {
    uint64_t pos = enq_.load(std::memory_order_relaxed);
    for (;;) {
      cell &c = cells_[pos % depth_];
      uint64_t seq = c.seq.load(std::memory_order_acquire);
      if (seq == 2 * pos) {
        if (enq_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed))
          break;
      } else if (seq < 2 * pos) {
        return false; // the cell still holds the value of a lap ago: full
      } else {
        pos = enq_.load(std::memory_order_relaxed);
      }
    }
    cell &c = cells_[pos % depth_];
    c.value = v;
    c.seq.store(2 * pos + 1, std::memory_order_release);
    // Consumers may have passed this cell already: no underflow.
    uint64_t d = deq_.load(std::memory_order_relaxed);
    note_occupancy(pos + 1 > d ? pos + 1 - d : 0);
    return true;
  }

  bool try_pop(T &out) {
    uint64_t pos = deq_.load(std::memory_order_relaxed);
    for (;;) {
      cell &c = cells_[pos % depth_];
      uint64_t seq = c.seq.load(std::memory_order_acquire);
      if (seq == 2 * pos + 1) {
        if (deq_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed))
          break;
      } else if (seq < 2 * pos + 1) {
        return false; // empty
      } else {
        pos = deq_.load(std::memory_order_relaxed);
      }
    }
    cell &c = cells_[pos % depth_];
    out = c.value;
    c.seq.store(2 * (pos + depth_), std::memory_order_release);
    return true;
  }

  // The same for the FIFO's only user (no other thread touches it now).
  bool try_push_exclusive(const T &v) {
    uint64_t pos = enq_.load(std::memory_order_relaxed);
    uint64_t n = pos - deq_.load(std::memory_order_relaxed);
    if (n == depth_)
      return false;
    cell &c = cells_[pos % depth_];
    c.value = v;
    c.seq.store(2 * pos + 1, std::memory_order_relaxed);
    enq_.store(pos + 1, std::memory_order_relaxed);
    note_occupancy(n + 1);
    return true;
  }
  bool try_pop_exclusive(T &out) {
    uint64_t pos = deq_.load(std::memory_order_relaxed);
    if (pos == enq_.load(std::memory_order_relaxed))
      return false;
    cell &c = cells_[pos % depth_];
    out = c.value;
    c.seq.store(2 * (pos + depth_), std::memory_order_relaxed);
    deq_.store(pos + 1, std::memory_order_relaxed);
    return true;
  }

  // Hints for a thread that is not the producer or consumer.
  bool maybe_nonempty() const {
    return enq_.load(std::memory_order_acquire) !=
           deq_.load(std::memory_order_acquire);
  }
  bool maybe_full() const {
    return enq_.load(std::memory_order_acquire) -
               deq_.load(std::memory_order_acquire) >=
           depth_;
  }
  uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  // Words ever written (or being written) so far.
  uint64_t pushed() const { return enq_.load(std::memory_order_acquire); }
  // A word written and read at once by the FIFO's only user (inline mode).
  void pass_through() { note_occupancy(1); }

private:
  struct cell {
    std::atomic<uint64_t> seq;
    T value;
  };
  void note_occupancy(uint64_t n) {
    uint64_t p = peak_.load(std::memory_order_relaxed);
    while (n > p &&
           !peak_.compare_exchange_weak(p, n, std::memory_order_relaxed))
      ;
  }

  std::unique_ptr<cell[]> cells_;
  uint32_t depth_;
  alignas(64) std::atomic<uint64_t> enq_{0};
  alignas(64) std::atomic<uint64_t> deq_{0};
  alignas(64) std::atomic<uint64_t> peak_{0};
};

} // namespace weft
