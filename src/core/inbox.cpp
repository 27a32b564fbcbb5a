#include "core/inbox.hpp"

#include "base/check.hpp"
#include "base/fence.hpp"
#include "core/team.hpp"

namespace weft {

inbox::~inbox() {
  WEFT_CHECK(head_ == nullptr && queued_.load() == 0,
             "inbox: destroyed with %lld jobs never run",
             static_cast<long long>(queued_.load()));
}

void inbox::submit(inbox_job *j) {
  WEFT_CHECK(j && j->run, "inbox::submit: job %p has no run function",
             static_cast<void *>(j));
  {
    std::lock_guard<std::mutex> lk(lock_);
    WEFT_CHECK(j != tail_ && j->next == nullptr,
               "inbox::submit: job %p is queued already",
               static_cast<void *>(j));
    if (tail_)
      tail_->next = j;
    else
      head_ = j;
    tail_ = j;
    queued_.fetch_add(1, std::memory_order_seq_cst);
  }
  submitted_.fetch_add(1, std::memory_order_relaxed);
  // Pairs with the sleeper's heavy_fence between announcing itself in
  // num_sleeping and its last look (worker::work_visible), as push_ready.
  light_fence();
  if (team_.num_sleeping().load(std::memory_order_seq_cst) > 0)
    team_.wake_one();
}

inbox_job *inbox::take() {
  if (!maybe_nonempty())
    return nullptr;
  inbox_job *j;
  {
    std::lock_guard<std::mutex> lk(lock_);
    j = head_;
    if (!j)
      return nullptr;
    head_ = j->next;
    if (!head_)
      tail_ = nullptr;
    std::int64_t left = queued_.fetch_sub(1, std::memory_order_relaxed) - 1;
    WEFT_CHECK(left >= 0 && (left == 0) == (head_ == nullptr),
               "inbox::take: %lld jobs counted, list %s",
               static_cast<long long>(left), head_ ? "not empty" : "empty");
  }
  j->next = nullptr;
  taken_.fetch_add(1, std::memory_order_relaxed);
  return j;
}

} // namespace weft
