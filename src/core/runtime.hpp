// The runtime: the workers, the engine, sleeping and waking, and the
// operations the front ends call (spawn, the waits, taskgroups).
#pragma once

#include "../engines/engine.hpp"
#include "../engines/worksharing_engine.hpp"
#include "base/backoff.hpp"
#include "base/fence.hpp"
#include "worker.hpp"

#include <weft/weft.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <vector>

namespace weft {

class runtime {
public:
  // Starts n workers in one team (the native API's); the calling thread
  // becomes worker 0 in slot 0. Front ends that make their own teams (the
  // OpenMP one) start with n = 1.
  runtime(int nthreads, std::unique_ptr<dependency_engine> engine,
          std::unique_ptr<worksharing_engine> ws_engine);
  // Starts the runtime with n workers (0: WEFT_NUM_THREADS, else the CPUs
  // we may run on) and the engine WEFT_ENGINE names, unless it runs already
  // (then n must be 0 or its size). Returns a weft error code.
  static int start(int nthreads, const char *call);
  ~runtime(); // waits for every task, then joins the workers

  // Workers that exist (they only ever grow in number).
  int nthreads() const { return nworkers_.load(std::memory_order_acquire); }
  dependency_engine &engine() { return *engine_; }
  worksharing_engine &ws_engine() { return *ws_engine_; }
  // The work-sharing engine when it also hands out task descriptors (HWSE's
  // memory bins), else nullptr.
  worksharing_engine *descriptor_bins() const { return descriptor_bins_; }
  worker &worker_at(int i) { return *workers_[i]; }
  task_pool *const *pools() { return pools_.get(); }
  bool stopping() const { return stopping_.load(std::memory_order_acquire); }
  team &initial_team() { return *team0_; }

  // ---- operations on the calling worker's current task -------------------
  int spawn(worker &w, task *t, const weft_dep *deps, int ndeps);
  int taskwait(worker &w);
  int taskwait_deps(worker &w, const weft_dep *deps, int ndeps);
  int taskgroup_begin(worker &w);
  int taskgroup_end(worker &w);
  // Whether a new task with these dependences should run at once in the
  // creating thread instead of being queued (too many unfinished children,
  // as spawn's throttling decides, and its dependences already satisfied).
  bool run_now_instead(worker &w, const weft_dep *deps, int ndeps);
  // The detach event of t (TASK_DETACH) happened; t completes now if its
  // body has ended, else when it ends. Any thread may call it.
  void fulfill(task *t);

  // ---- teams ----------------------------------------------------------------
  // A team of n for a region whose master is `master` (slot 0): the workers
  // of the master's previous region at this depth when there are enough,
  // then idle workers, then new threads. The caller sets body/arg/user.
  team *begin_team(worker &master, int n);
  // Runs the body on every member (the master too), then the end barrier.
  // Members may still be leaving when it returns: begin_team waits for them
  // before it reuses the team or its workers.
  void run_team(worker &master, team *t);
  // run_team in two halves, for front ends whose master runs the body
  // itself between them (libgomp's GOMP_parallel_start/end).
  worker::membership start_team(worker &master, team *t);
  void finish_team(worker &master, team *t, const worker::membership &m);
  // Waits until the members of every team some worker leads have left it
  // (the workers are then idle or in their own thread's team).
  void wait_teams_left();
  // A thread weft did not start becomes a worker with a team of its own
  // (an OpenMP initial thread).
  worker *adopt_thread();

  // ---- scheduling support --------------------------------------------------
  // Wakes w if it sleeps; whoever clears its sleeping flag wakes it.
  bool try_wake(worker &w);
  void wake(int worker_id) {
    if (worker *w = workers_[worker_id])
      try_wake(*w);
  }
  // From any thread (an engine's manager thread too): t is ready. It is
  // queued in its own team, or, a TASK_WAITER, its waiting thread resumes.
  void engine_ready(task *t);
  // The taskwait-depend waiter t may resume (any thread).
  void release_waiter(task *t);
  // A slot of t's team (the spawning worker's): home_slot(t)->owner is the
  // team t runs in.
  static team_slot *home_slot(task *t);

  // The engines' named counters (dependency engine, then work sharing).
  std::vector<engine_counter> engine_counters() const;

  weft_stats stats() const;
  void print_stats() const;
  // WEFT_STATS asks for the counters at exit (set, and not 0).
  static bool stats_requested();

private:
  worker *new_worker(bool with_thread);
  template <bool Traced>
  int spawn_impl(worker &w, task *t, const weft_dep *deps, int ndeps);
  int taskwait_impl(worker &w);
  int taskwait_deps_impl(worker &w, const weft_dep *deps, int ndeps);
  static void wait_members_left(team *t);
  void wait_all_tasks(worker &w);
  // parent's children not yet finished (after adding w's pending counts).
  static uint64_t unfinished_children(worker &w, task *parent);
  static void take_exception_into_tls(std::exception_ptr *e);

  // t could not go to the engine: run it here once every earlier child of
  // parent has finished (see submit_result::serialize).
  void serialize(worker &w, task *parent, task *t);
  // Run tasks until at least n children of parent have finished.
  void wait_children(worker &w, task *parent, uint64_t n);

  std::unique_ptr<dependency_engine> engine_;
  std::unique_ptr<worksharing_engine> ws_engine_;
  worksharing_engine *descriptor_bins_ = nullptr;
  std::unique_ptr<wait_watchdog> watchdog_; // WEFT_DEBUG=waits
  std::unique_ptr<worker *[]> workers_;
  std::unique_ptr<task_pool *[]> pools_;
  std::atomic<int> nworkers_{0};
  std::vector<pthread_t> threads_;
  std::mutex workers_lock_;    // creation, threads_, idle_
  std::vector<worker *> idle_; // started workers in no team
  team *team0_ = nullptr;
  std::atomic<bool> stopping_{false};
};

// The running runtime (nullptr when stopped) and the calling thread's worker
// (nullptr for threads weft does not know).
extern std::atomic<runtime *> g_runtime;
extern
    __attribute__((tls_model("initial-exec"))) thread_local worker *tl_worker;
// Stack size of the threads weft starts (0: the system's default).
extern std::size_t g_worker_stack_size;

// -------------------------------------------------------------------------
template <class Cond> void worker::sleep_unless(Cond cond) {
  uint32_t seen = sleep_word_.load(std::memory_order_acquire);
  std::atomic<int> &asleep = team_->num_sleeping();
  sleeping_.store(true, std::memory_order_seq_cst);
  asleep.fetch_add(1, std::memory_order_seq_cst);
  heavy_fence(); // pairs with light_fence() in push_ready
  if (!cond()) {
    worker_counters::bump(c_.sleeps);
    if (int us = rt_.engine().poll_interval_us(*this))
      futex_wait_for(sleep_word_, seen, us);
    else
      futex_wait(sleep_word_, seen);
  }
  // The sleeper alone counts itself out (a waker that did so could read the
  // counter of this thread's next sleep, in another team).
  sleeping_.store(false, std::memory_order_relaxed);
  asleep.fetch_sub(1, std::memory_order_relaxed);
}

// A submit answered "full" with no other work to run: spin, yield, then
// serialize the task (submit_result::serialize). Few yields: on a loaded
// machine each one can give away a whole time slice, and a deep recursion
// with dependences under a tiny unit comes here for most of its tasks
// (docs/engines.md, "Serialized tasks").
inline constexpr backoff_policy kFullBackoff{63, 8};

// A worker with nothing to run while it waits: spin briefly (cheap to
// resume), yield (other threads may need this core when oversubscribed),
// then sleep.
inline constexpr backoff_policy kWaitBackoff{63, 8, 256};

template <class Done> void worker::wait_until(Done done) {
  backoff idle(kWaitBackoff);
  // Our own finished-children counts may be what done() waits for.
  flush_finished_children();
  while (!done()) {
    if (task *t = find_work()) {
      // One task per look at done(), not run_chain: the wait may be over
      // after any task (taskwait on waits for one), and the successors each
      // task releases could keep this thread running far past it while the
      // code after the wait creates nobody's next work.
      execute(t);
      // A taskwait of the task we are in may be waiting for these counts;
      // counts for other parents wait until we run out of work, and all of
      // them until the end of a chain of immediate successors (one atomic
      // add for the chain).
      if (!immediate_ && unflushed_parent_ == current_)
        flush_finished_children();
      idle.reset();
      continue;
    }
    flush_finished_children();
    if (!idle.pause()) {
      pool_.flush_remote(rt_.pools());
      sleep_unless([&] { return done() || work_visible(); });
      idle.reset();
    }
  }
  // Counts for other parents: their waiters must not depend on when we
  // next go idle.
  flush_finished_children();
  // A successor kept for this thread goes where the others can take it.
  if (task *t = immediate_) {
    immediate_ = nullptr;
    push_ready(t);
  }
}

} // namespace weft
