// A worker: one thread, its ready deque, its descriptor pool and its implicit
// task. Scheduling order when a worker looks for work: the task its last
// retirement made ready (immediate successor), then prioritised tasks, its
// own deque (newest first), the engine's ready queue, then stealing (oldest
// first) from a random victim.
#pragma once

#include "futex.hpp"
#include "ready_deque.hpp"
#include "task.hpp"
#include "task_pool.hpp"
#include "wait_report.hpp"

#include <atomic>
#include <cstdint>

namespace weft {

class runtime;

// Single-writer counters: only the owning worker writes, anyone may read.
struct worker_counters {
  std::atomic<uint64_t> spawned{0}, finished{0}, steals{0}, immediate{0},
      sleeps{0}, full{0}, undeferred{0};
  static void bump(std::atomic<uint64_t> &c) {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
};

class alignas(64) worker {
public:
  worker(runtime &rt, int id, int nworkers);
  ~worker();
  worker(const worker &) = delete;
  worker &operator=(const worker &) = delete;

  int id() const { return id_; }
  runtime &rt() { return rt_; }
  task *current() const { return current_; }
  task_pool &pool() { return pool_; }
  worker_counters &counters() { return c_; }
  wait_record &wait_state() { return wait_; }
  bool sleeping() const { return sleeping_.load(std::memory_order_relaxed); }
  task *root() { return &root_; }

  // A fresh descriptor from this worker's pool, owned by the caller.
  task *alloc_task(weft_task_fn fn, void *arg);
  // Drop one reference; the last one frees the descriptor. References are
  // only ever given at submission, so seeing 1 means ours is the last.
  void release_ref(task *t) {
    if (t->refs.load(std::memory_order_acquire) == 1 ||
        t->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      free_task(t);
  }
  void free_task(task *t);

  // t may run now. Called by engines (successors of a retirement: the first
  // one becomes this worker's immediate successor) and by spawn.
  void make_ready(task *t);
  // Queue a ready task on this worker and wake a sleeper if there is one.
  void push_ready(task *t);

  // Run tasks until done() holds; sleeps when there is nothing to run and
  // is woken by whoever makes done() true through runtime::wake(id()).
  template <class Done> void wait_until(Done done);
  // Run one available task, if any; returns whether it did.
  bool help_once();
  // The thread function of workers 1..n-1.
  void run_loop();

  // Runs t, then the chain of immediate successors it leaves behind.
  void run_chain(task *t);
  // Runs a task that was never submitted to the engine (undeferred).
  void run_undeferred(task *t) {
    t->flags |= TASK_NO_SUCCESSORS;
    execute(t);
  }
  // Add this worker's pending finished-children counts to their parent.
  void flush_finished_children();

private:
  friend class runtime;
  task *find_work();
  task *steal();
  bool work_visible() const;
  template <class Cond> void sleep_unless(Cond cond);
  void execute(task *t);
  void finish(task *t);
  void record_exception(task *t, std::exception_ptr e);
  void signal_waiter(task *t);
  void count_finished_child(task *parent);

  runtime &rt_;
  int id_;
  task *current_;
  task *immediate_ = nullptr;
  bool in_retire_ = false;
  // Finished children of one parent not yet added to its counter: a worker
  // finishing many siblings in a row pays one atomic, not one per task
  // (Phentos' private retirement counters). Flushed before the worker idles.
  task *unflushed_parent_ = nullptr;
  uint64_t unflushed_ = 0;
  // The parent that had too many unfinished children at its last check.
  task *throttled_ = nullptr;
  uint64_t rng_;
  ready_deque deque_;
  task_pool pool_;
  worker_counters c_;
  wait_record wait_;
  alignas(64) std::atomic<uint32_t> sleep_word_{0};
  std::atomic<bool> sleeping_{false};
  task root_;
};

} // namespace weft
