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
  fifo(const fifo &) = delete;
  fifo &operator=(const fifo &) = delete;

  // Appends p; false (and nothing changes) when the FIFO is full.
  bool push(void *p) {
    const uint16_t n = static_cast<uint16_t>(tail_ - head_);
    if (n == depth_)
      return false;
    slot_[tail_++ & (depth_ - 1)] = p;
    if (n + 1 > peak_)
      peak_ = static_cast<uint16_t>(n + 1);
    return true;
  }
  // The oldest entry, or nullptr when the FIFO is empty.
  void *pop() {
    if (head_ == tail_)
      return nullptr;
    return slot_[head_++ & (depth_ - 1)];
  }

  uint32_t size() const { return static_cast<uint16_t>(tail_ - head_); }
  uint32_t depth() const { return depth_; }
  uint32_t peak() const { return peak_; } // highest occupancy seen

private:
  std::unique_ptr<void *[]> slot_;
  // Free-running 16-bit positions (the depth divides 2^16): 16 bytes in all,
  // so the allocator keeps the FIFO in its one hot line.
  uint16_t depth_;
  uint16_t head_ = 0, tail_ = 0;
  uint16_t peak_ = 0;
};

} // namespace weft::hwse
