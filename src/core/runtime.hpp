// The runtime: the workers, the engine, sleeping and waking, and the
// operations the front ends call (spawn, the waits, taskgroups).
#pragma once

#include "base/backoff.hpp"
#include "base/fence.hpp"
#include "engines/engine.hpp"
#include "engines/worksharing_engine.hpp"
#include "throttle.hpp"
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
  // The workers' side pools (worker::side_pool), indexed like pools().
  task_pool *const *side_pools() { return side_pools_.get(); }
  bool stopping() const { return stopping_.load(std::memory_order_acquire); }
  team &initial_team() { return *team0_; }

  // ---- operations on the calling worker's current task -------------------
  int spawn(worker &w, task *t, const weft_dep *deps, int ndeps);
  // As spawn with no dependences, but t, once ready, goes to the mailbox of
  // member `member` of w's team (team::mail): that member runs it unless it
  // stays busy past kMailPatienceNs. Where spawn would run t at once in the
  // creating thread (throttling, serialization) it still does, and an
  // engine that answers `pending` makes t ready where it pleases (the
  // hardware models): placement is then lost. Returns a weft error code
  // (member out of range: WEFT_EINVAL naming it, t untouched).
  int spawn_to(worker &w, task *t, int member);
  int taskwait(worker &w);
  int taskwait_deps(worker &w, const weft_dep *deps, int ndeps);
  int taskgroup_begin(worker &w);
  int taskgroup_end(worker &w);
  // Whether a new task with these dependences should run at once in the
  // creating thread instead of being queued (too many unfinished children,
  // as spawn's throttling decides, and its dependences already satisfied).
  bool run_now_instead(worker &w, const weft_dep *deps, int ndeps);
  // run_now_instead with its common case (a task without dependences
  // between two rechecks) inline: core/in_place.hpp.
  static inline bool in_place_now(worker &w, const weft_dep *deps, int ndeps);
  // in_place_now's common case alone (no dependences, the gate open),
  // changing nothing when it does not hold: core/in_place.hpp.
  static inline bool in_place_open(worker &w);
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
  // spawn's body; queue_ready(t) queues a task ready at submission.
  template <class Queue>
  int spawn_as(worker &w, task *t, const weft_dep *deps, int ndeps,
               Queue queue_ready);
  // taskwait and taskwait_deps without their trace points.
  int wait_all_children(worker &w);
  int wait_children_on(worker &w, const weft_dep *deps, int ndeps);
  // One waiter for the children of cur that deps order after; false when
  // the engine cannot take it (with retry: offered again until every child
  // has finished, then false).
  bool wait_on(worker &w, task *cur, const weft_dep *deps, int ndeps,
               bool retry);
  static void wait_members_left(team *t);
  void wait_all_tasks(worker &w);
  // parent's children not yet finished (after adding w's pending counts).
  static uint64_t unfinished_children(worker &w, task *parent);
  // Whether the creator of parent's children (w) is over the throttle
  // (halve 0) or over half of it (halve 1: what a throttled creator runs
  // tasks down to): more ready tasks in w's deque than kThrottlePerThread per
  // thread, or more unfinished children than its window per thread.
  static bool over_throttle(worker &w, task *parent, unsigned halve);
  // At the throttle's periodic checks: w's estimate of its task grain
  // (whether the wide window applies), from the time per task it finished
  // since the last estimate.
  static void update_grain(worker &w);
  // update_grain, then over_throttle: the periodic check.
  static bool throttle_recheck(worker &w, task *parent, unsigned halve);
  // run_now_instead's periodic check: whether w stays throttled (its
  // in-place tasks too fine to hand off, or over half the throttle).
  static bool still_throttled(worker &w, task *parent);
  // spawn_as's probe point: whether the team's recent tasks were fine
  // enough for a creator to try them in place.
  static bool worth_probing(worker &w);
  // Whether a throttled creator runs a ready child in place or queues it
  // for the team's thieves, and the counts of a task run in place
  // (core/in_place.hpp).
  static inline bool feeds_thieves(worker &w, uint64_t taking = 0);
  static inline bool count_in_place(worker &w);
  static void take_exception_into_tls(std::exception_ptr *e);

  // t could not go to the engine: run it here once every earlier child of
  // parent has finished (see submit_result::serialize).
  void serialize(worker &w, task *parent, task *t);
  // Run tasks until at least n children of parent have finished.
  void wait_children(worker &w, task *parent, uint64_t n);
  // Offers w's backlog (worker::backlog_) to the engine again, oldest first
  // and in creation order per parent; runs the oldest entry of the running
  // task here when every earlier child of that task has finished. Returns
  // whether an entry left the backlog.
  bool drain_backlog(worker &w);
  // Puts t at the end of w's backlog (counted in WEFT_STATS).
  static void to_backlog(worker &w, task *parent, task *t, const weft_dep *deps,
                         int ndeps);
  // Whether an entry of parent in w's backlog names one of deps' addresses.
  static bool backlog_conflicts(worker &w, task *parent, const weft_dep *deps,
                                int ndeps);
  // Entries of parent in w's backlog.
  static std::size_t backlogged(worker &w, task *parent);

public:
  // Until no child of the running task is left in w's backlog.
  void drain_own_backlog(worker &w);
  // worker's hooks (idle.hpp, help_once): drain_backlog when there is one.
  bool drain_backlog_if_any(worker &w) {
    return !w.backlog_.empty() && drain_backlog(w);
  }

private:
  std::unique_ptr<dependency_engine> engine_;
  std::unique_ptr<worksharing_engine> ws_engine_;
  worksharing_engine *descriptor_bins_ = nullptr;
  std::unique_ptr<wait_watchdog> watchdog_; // WEFT_DEBUG=waits
  std::unique_ptr<worker *[]> workers_;
  std::unique_ptr<task_pool *[]> pools_;
  std::unique_ptr<task_pool *[]> side_pools_;
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
// constinit: no dynamic initialisation, so no TLS wrapper call to test on
// every access.
extern __attribute__((
    tls_model("initial-exec"))) constinit thread_local worker *tl_worker;
// Stack size of the threads weft starts (0: the system's default).
extern std::size_t g_worker_stack_size;
// WEFT_THROTTLE_WINDOW (core/throttle.hpp, spawn.cpp).
extern throttle_window g_throttle_window;
// WEFT_THROTTLE_GRAIN (core/throttle.hpp, spawn.cpp).
extern throttle_grain g_throttle_grain;
// How long an idle worker spins and yields before it sleeps
// (core/idle.hpp): WEFT_WAIT_POLICY, or OMP_WAIT_POLICY through the OpenMP
// front end, which sets g_wait_policy_request before runtime::start.
enum class wait_policy { standard, active, passive };
// A front end's request (standard: none; WEFT_WAIT_POLICY decides).
extern wait_policy g_wait_policy_request;
// A front end's spin count (GOMP_SPINCOUNT: pauses before the yields; -1
// none): replaces the policy's spin phase, as in libgomp.
extern int64_t g_wait_pauses_request;
// Chosen once by runtime::start: the backoff of worker::wait_until and the
// one between teams (worker::thread_main).
extern wait_policy g_wait_policy;
extern backoff_policy g_wait_backoff;
extern backoff_policy g_between_teams_backoff;

} // namespace weft

// The templates of the idle protocol need the runtime's definition.
#include "core/idle.hpp"
