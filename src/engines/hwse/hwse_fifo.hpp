// The HWSE's FIFO queue: a circular buffer of 32, 64 or 128 addresses
// (section V-A). Not thread-safe: the unit serves one primitive at a time.
#pragma once

#include <cstdint>
#include <memory>

namespace weft::hwse {

class fifo {
public:
  // depth: 32, 64 or 128 (anything else is fatal).
  explicit fifo(uint32_t depth);

  // Appends p; false (and nothing changes) when the FIFO is full.
  bool push(void *p) {
    if (tail_ - head_ == depth_)
      return false;
    slot_[tail_++ & (depth_ - 1)] = p;
    if (tail_ - head_ > peak_)
      peak_ = tail_ - head_;
    return true;
  }
  // The oldest entry, or nullptr when the FIFO is empty.
  void *pop() {
    if (head_ == tail_)
      return nullptr;
    return slot_[head_++ & (depth_ - 1)];
  }

  uint32_t size() const { return tail_ - head_; }
  uint32_t depth() const { return depth_; }
  uint32_t peak() const { return peak_; } // highest occupancy seen

private:
  std::unique_ptr<void *[]> slot_;
  uint32_t depth_;
  uint32_t head_ = 0, tail_ = 0; // free-running; wrap together
  uint32_t peak_ = 0;
};

} // namespace weft::hwse
