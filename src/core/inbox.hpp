// A team's inbox: work handed to the team by threads outside it (an MPI
// progress thread, a timer, any thread weft did not start), which have no
// worker, no descriptor pool and no current task to spawn from.
//
// Guarantees: every submitted job runs exactly once, on a member of the team
// (for the native team's inbox: or on a worker that is in another team, an
// OpenMP region's, while it looks for work), as a task of its own (no parent
// to wait for it, no taskgroup, so no cancellation skips it); a submission to
// a team whose members sleep wakes one of them (the idle protocol of
// core/idle.hpp: the inbox is part of what a sleeper looks at last, the
// submitter fences and wakes as push_ready does). Jobs start in submission
// order, one per idle look of a member; a member busy in a task starts none
// until it next looks for work. A job is a root (no task descends from it),
// so a member under OpenMP's tied-task constraint may start one above its
// suspended tied task, up to worker::kMaxServedUnderTied jobs nested on its
// stack (worker::may_serve).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace weft {

class team;

// A job: run(self) is called once and owns self from then on (it may free
// it). It must not throw (an exception ends the process naming the job's
// address); tasks it spawns are its children and have finished before the
// member that ran it looks for work again.
struct inbox_job {
  void (*run)(inbox_job *self) = nullptr;
  inbox_job *next = nullptr;
};

class inbox {
public:
  explicit inbox(team &members) : team_(members) {}
  ~inbox(); // checks that no job is left
  inbox(const inbox &) = delete;
  inbox &operator=(const inbox &) = delete;

  // Any thread: queue j (not queued elsewhere, run set) and wake one
  // sleeping member.
  void submit(inbox_job *j);
  // Whether a job may be waiting: one relaxed load, for idle loops. A job
  // submitted before a sleeper's heavy fence is seen by it.
  bool maybe_nonempty() const {
    return queued_.load(std::memory_order_relaxed) != 0;
  }
  // Members: the oldest job, removed (the caller runs it), or nullptr.
  inbox_job *take();

  // Jobs submitted and taken so far (for tests and statistics).
  std::uint64_t submitted() const {
    return submitted_.load(std::memory_order_relaxed);
  }
  std::uint64_t taken() const { return taken_.load(std::memory_order_relaxed); }

private:
  team &team_;
  std::mutex lock_; // head_, tail_ (submissions are rare next to tasks)
  inbox_job *head_ = nullptr;
  inbox_job *tail_ = nullptr;
  alignas(64) std::atomic<std::int64_t> queued_{0};
  std::atomic<std::uint64_t> submitted_{0}, taken_{0};
};

} // namespace weft
