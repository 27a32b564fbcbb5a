// A bounded FIFO as the Manager's and Picos' hardware queues are: fixed
// capacity, push only when not full, and the highest occupancy it reached.
// Not thread-safe: the Manager's lock guards every one of them.
#pragma once

#include <cstdint>
#include <memory>

namespace weft {

template <class T> class picos_fifo {
public:
  explicit picos_fifo(uint32_t capacity)
      : buf_(new T[capacity]()), cap_(capacity) {}

  uint32_t capacity() const { return cap_; }
  uint32_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  bool full() const { return n_ == cap_; }
  uint32_t peak() const { return peak_; }

  // Requires !full().
  void push(const T &v) {
    uint32_t i = head_ + n_;
    if (i >= cap_)
      i -= cap_;
    buf_[i] = v;
    if (++n_ > peak_)
      peak_ = n_;
  }
  // Require !empty().
  const T &front() const { return buf_[head_]; }
  T pop() {
    T v = buf_[head_];
    if (++head_ == cap_)
      head_ = 0;
    --n_;
    return v;
  }

private:
  std::unique_ptr<T[]> buf_;
  uint32_t cap_;
  uint32_t head_ = 0;
  uint32_t n_ = 0;
  uint32_t peak_ = 0;
};

} // namespace weft
