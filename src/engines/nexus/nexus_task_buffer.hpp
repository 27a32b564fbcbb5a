// The Task Buffer: descriptors the unit has read from the New Tasks FIFO and
// not yet inserted into the task graph, oldest first (a ring of `capacity`).
#pragma once

#include "nexus_descriptor.hpp"

#include <cstdint>
#include <vector>

namespace weft {

class nexus_task_buffer {
public:
  explicit nexus_task_buffer(uint32_t capacity) : slots_(capacity) {}

  uint32_t size() const { return n_; }
  bool full() const { return n_ == slots_.size(); }
  bool empty() const { return n_ == 0; }
  void push(const nexus_descriptor &d) {
    slots_[(head_ + n_) % slots_.size()] = d;
    ++n_;
  }
  nexus_descriptor &front() { return slots_[head_]; }
  void pop() {
    head_ = (head_ + 1) % static_cast<uint32_t>(slots_.size());
    --n_;
  }

private:
  std::vector<nexus_descriptor> slots_;
  uint32_t head_ = 0, n_ = 0;
};

} // namespace weft
