#include "core/mailbox.hpp"

#include "base/check.hpp"

#include <time.h>

namespace weft {

uint64_t mail_clock_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000u + uint64_t(ts.tv_nsec);
}

mailbox::~mailbox() {
  WEFT_CHECK(count_ == 0 && queued_.load() == 0,
             "mailbox: destroyed with %lld tasks never run",
             static_cast<long long>(queued_.load()));
}

void mailbox::put(task *t, uint64_t stamp) {
  WEFT_CHECK(t, "mailbox::put: a null task");
  {
    std::lock_guard<std::mutex> lk(lock_);
    if (count_ == ring_.size()) {
      // Grow: unroll the ring into a twice larger one.
      std::vector<letter> bigger(ring_.empty() ? 16 : 2 * ring_.size());
      for (std::size_t i = 0; i < count_; ++i)
        bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
      ring_.swap(bigger);
      head_ = 0;
    }
    ring_[(head_ + count_) & (ring_.size() - 1)] = {t, stamp};
    ++count_;
    queued_.fetch_add(1, std::memory_order_seq_cst);
  }
  put_.fetch_add(1, std::memory_order_relaxed);
}

task *mailbox::pop_locked() {
  task *t = ring_[head_].t;
  head_ = (head_ + 1) & (ring_.size() - 1);
  --count_;
  std::int64_t left = queued_.fetch_sub(1, std::memory_order_relaxed) - 1;
  WEFT_CHECK(left >= 0 && std::size_t(left) == count_,
             "mailbox: %lld tasks counted, %zu queued",
             static_cast<long long>(left), count_);
  return t;
}

task *mailbox::take() {
  if (!maybe_nonempty())
    return nullptr;
  task *t;
  {
    std::lock_guard<std::mutex> lk(lock_);
    if (count_ == 0)
      return nullptr;
    t = pop_locked();
  }
  by_owner_.fetch_add(1, std::memory_order_relaxed);
  return t;
}

task *mailbox::take_if_stamped_by(uint64_t stamped_by) {
  if (!maybe_nonempty())
    return nullptr;
  task *t;
  {
    std::lock_guard<std::mutex> lk(lock_);
    if (count_ == 0 || ring_[head_].stamp > stamped_by)
      return nullptr;
    t = pop_locked();
  }
  by_others_.fetch_add(1, std::memory_order_relaxed);
  return t;
}

} // namespace weft
