// WEFT_DEBUG=waits: what every worker is waiting for, printed when the
// program stops making progress. Workers record their wait when they enter
// one (not on the task path); a watchdog thread prints all of them to stderr
// when no task has finished for WEFT_DEBUG_WAIT_SECONDS (default 5) while
// some worker waits, and again each period the stall lasts.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace weft {

class runtime;
struct task;

enum class wait_kind : int {
  none = 0,    // running a task or looking for one
  taskwait,    // children of `task`
  taskwait_on, // earlier children of `task` that access `addr`
  taskgroup,   // a taskgroup of `task`
  shutdown,    // every task
  barrier,     // the other members and every task of the team
};

// One worker's current wait; written by that worker, read by the watchdog.
// The fields the report needs are copied here at entry (the watchdog must
// not read a task's plain fields): they do not change during the wait.
struct wait_record {
  std::atomic<int> kind{0};
  std::atomic<const task *> waiting_task{nullptr};
  std::atomic<const void *> addr{nullptr};
  std::atomic<uint64_t> created{0}; // children of the waiting task
  std::atomic<bool> root{false};    // the waiting task is a thread's own

  void enter(wait_kind k, const task *t, const void *a);
};

// Restores the previous record on scope exit (waits nest: a task run while
// waiting may wait itself).
class wait_scope {
public:
  wait_scope(wait_record &r, wait_kind k, const task *t,
             const void *a = nullptr)
      : r_(r),
        kind_(static_cast<wait_kind>(r.kind.load(std::memory_order_relaxed))),
        task_(r.waiting_task.load(std::memory_order_relaxed)),
        addr_(r.addr.load(std::memory_order_relaxed)) {
    r.enter(k, t, a);
  }
  ~wait_scope() { r_.enter(kind_, task_, addr_); }
  wait_scope(const wait_scope &) = delete;
  wait_scope &operator=(const wait_scope &) = delete;

private:
  wait_record &r_;
  wait_kind kind_;
  const task *task_;
  const void *addr_;
};

class wait_watchdog {
public:
  // Starts the watchdog thread if WEFT_DEBUG names "waits".
  explicit wait_watchdog(runtime &rt);
  ~wait_watchdog();
  wait_watchdog(const wait_watchdog &) = delete;
  wait_watchdog &operator=(const wait_watchdog &) = delete;

  // Every worker's state, one line each (also used by tests).
  std::string report() const;

private:
  void run();

  runtime &rt_;
  double period_s_ = 5.0;
  std::thread thread_;
  std::mutex lock_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
};

// Whether the WEFT_DEBUG list (comma- or space-separated) names `what`.
bool debug_enabled(const char *what);

} // namespace weft
