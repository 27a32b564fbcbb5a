// A team member's mailbox: ready tasks sent to one chosen member of a team
// (runtime::spawn_to), as oneTBB's affinity mailbox. Any thread of the team
// puts; the member takes its own mail when its deque is empty, before it
// steals; another member takes a letter only once it has waited kMailPatience
// (the owner is busy in a long task, or is not given a core), so that mail
// never holds back load balance and is never lost.
//
// A locked FIFO (letters are sent at the rate of placed tasks, far below the
// rate of ordinary tasks); whether it is empty is one relaxed load, so a
// member with nothing mailed pays that alone. The sleep protocol is the
// deque's (core/idle.hpp): the sender puts, fences, and wakes the owner if it
// sleeps (team::mail); work_visible counts mailboxes.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace weft {

struct task;

// How long a letter waits for its owner before another member may take it.
inline constexpr uint64_t kMailPatienceNs = 200'000;

// Monotonic nanoseconds (a letter's stamp).
uint64_t mail_clock_ns();

class mailbox {
public:
  mailbox() = default;
  ~mailbox(); // checks that no letter is left
  mailbox(const mailbox &) = delete;
  mailbox &operator=(const mailbox &) = delete;

  // Any thread: queue t (ready, queued nowhere else), stamped `stamp`.
  void put(task *t, uint64_t stamp);
  // Whether a letter may be waiting: one relaxed load. A letter put before a
  // sleeper's heavy fence is seen by it.
  bool maybe_nonempty() const {
    return queued_.load(std::memory_order_relaxed) != 0;
  }
  // The owner: the oldest letter, removed, or nullptr.
  task *take();
  // Another member: the oldest letter if it was stamped at or before
  // `stamped_by`, removed; else nullptr.
  task *take_if_stamped_by(uint64_t stamped_by);

  // Letters put, and taken by the owner / by other members (statistics).
  uint64_t put_count() const { return put_.load(std::memory_order_relaxed); }
  uint64_t taken_by_owner() const {
    return by_owner_.load(std::memory_order_relaxed);
  }
  uint64_t taken_by_others() const {
    return by_others_.load(std::memory_order_relaxed);
  }

private:
  struct letter {
    task *t;
    uint64_t stamp;
  };
  task *pop_locked();

  std::mutex lock_;          // ring_, head_, count_
  std::vector<letter> ring_; // a ring of ring_.size() (a power of two) slots
  std::size_t head_ = 0, count_ = 0;
  alignas(64) std::atomic<int64_t> queued_{0};
  std::atomic<uint64_t> put_{0}, by_owner_{0}, by_others_{0};
};

} // namespace weft
