// The runtime: the workers, the engine, sleeping and waking, and the
// operations the front ends call (spawn, the waits, taskgroups).
#pragma once

#include "../engines/engine.hpp"
#include "fence.hpp"
#include "worker.hpp"

#include <weft/weft.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace weft {

class runtime {
public:
  // Starts n workers; the calling thread becomes worker 0.
  runtime(int nthreads, std::unique_ptr<dependency_engine> engine);
  ~runtime(); // waits for every task, then joins the workers

  int nthreads() const { return static_cast<int>(workers_.size()); }
  dependency_engine &engine() { return *engine_; }
  worker &worker_at(int i) { return *workers_[i]; }
  std::vector<task_pool *> &pools() { return pools_; }
  bool stopping() const { return stopping_.load(std::memory_order_acquire); }

  // ---- operations on the calling worker's current task -------------------
  int spawn(worker &w, task *t, const weft_dep *deps, int ndeps);
  int taskwait(worker &w);
  int taskwait_deps(worker &w, const weft_dep *deps, int ndeps);
  int taskgroup_begin(worker &w);
  int taskgroup_end(worker &w);

  // ---- scheduling support --------------------------------------------------
  void wake(int worker_id);
  void wake_one();
  std::atomic<int> &num_sleeping() { return num_sleeping_; }

  // Tasks with a priority wait in one shared heap, checked before the deques.
  void push_priority(task *t);
  task *pop_priority();
  bool has_priority_tasks() const {
    return prio_count_.load(std::memory_order_relaxed) > 0;
  }

  weft_stats stats() const;
  void print_stats() const;

private:
  // Wakes w if it sleeps; whoever clears its sleeping flag wakes it.
  bool try_wake(worker &w);
  void wait_all_tasks(worker &w);
  // parent's children not yet finished (after adding w's pending counts).
  static uint64_t unfinished_children(worker &w, task *parent);
  static void take_exception_into_tls(std::exception_ptr *e);

  std::unique_ptr<dependency_engine> engine_;
  std::unique_ptr<wait_watchdog> watchdog_; // WEFT_DEBUG=waits
  std::vector<worker *> workers_;
  std::vector<task_pool *> pools_;
  std::vector<std::thread> threads_;
  uint64_t throttle_limit_ = 0; // unfinished children before throttling
  std::atomic<bool> stopping_{false};
  alignas(64) std::atomic<int> num_sleeping_{0};
  std::atomic<unsigned> wake_cursor_{0};
  alignas(64) std::atomic<int> prio_count_{0};
  std::mutex prio_lock_;
  std::vector<task *> prio_heap_;
};

// The running runtime (nullptr when stopped) and the calling thread's worker
// (nullptr for threads weft does not know).
extern std::atomic<runtime *> g_runtime;
extern thread_local worker *tl_worker;

// -------------------------------------------------------------------------
template <class Cond> void worker::sleep_unless(Cond cond) {
  uint32_t seen = sleep_word_.load(std::memory_order_acquire);
  sleeping_.store(true, std::memory_order_seq_cst);
  rt_.num_sleeping().fetch_add(1, std::memory_order_seq_cst);
  heavy_fence(); // pairs with light_fence() in push_ready
  if (!cond()) {
    worker_counters::bump(c_.sleeps);
    futex_wait(sleep_word_, seen);
  }
  if (sleeping_.exchange(false, std::memory_order_acq_rel))
    rt_.num_sleeping().fetch_sub(1, std::memory_order_relaxed);
}

// Spin briefly (cheap to resume), then yield (other threads may need this
// core when oversubscribed), then sleep.
inline constexpr int kSpinRounds = 64;
inline constexpr int kYieldRounds = 8;

template <class Done> void worker::wait_until(Done done) {
  int idle = 0;
  // Our own finished-children counts may be what done() waits for.
  flush_finished_children();
  while (!done()) {
    if (task *t = find_work()) {
      run_chain(t);
      // A taskwait of the task we are in may be waiting for these counts;
      // counts for other parents wait until we run out of work.
      if (unflushed_parent_ == current_)
        flush_finished_children();
      idle = 0;
      continue;
    }
    flush_finished_children();
    ++idle;
    if (idle < kSpinRounds) {
      for (int i = 0; i < (idle < 16 ? 1 << (idle / 2) : 256); ++i)
        cpu_relax();
    } else if (idle < kSpinRounds + kYieldRounds) {
      std::this_thread::yield();
    } else {
      pool_.flush_remote(rt_.pools());
      sleep_unless([&] { return done() || work_visible(); });
      idle = 0;
    }
  }
}

} // namespace weft
