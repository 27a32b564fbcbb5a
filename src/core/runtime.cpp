#include "runtime.hpp"

#include "base/env.hpp"
#include "base/error.hpp"
#include "core/idle.hpp"
#include "trace/record/recorder.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sched.h>
#include <string>

namespace weft {

std::atomic<runtime *> g_runtime{nullptr};
// initial-exec: libweft is loaded with the program (or in libgomp's place),
// never dlopen'ed late, and the task path reads this on every call.
__attribute__((tls_model(
    "initial-exec"))) constinit thread_local worker *tl_worker = nullptr;
std::size_t g_worker_stack_size = 0;
throttle_window g_throttle_window = throttle_window::automatic;
throttle_grain g_throttle_grain = throttle_grain::automatic;
wait_policy g_wait_policy_request = wait_policy::standard;
int64_t g_wait_pauses_request = -1;
wait_policy g_wait_policy = wait_policy::standard;
backoff_policy g_wait_backoff = kWaitBackoff;
backoff_policy g_between_teams_backoff = kBetweenTeamsBackoff;

// GOMP_SPINCOUNT's pauses in rounds: the ramp of 509 pauses in 15 rounds,
// then 256 a round; the default policy's 63 rounds are 12,797 pauses.
static_assert(spin_rounds_for(0, 256) == 0 && spin_rounds_for(1, 256) == 1);
static_assert(spin_rounds_for(509, 256) == 15 &&
              spin_rounds_for(510, 256) == 16);
static_assert(spin_rounds_for(12797, 256) == kWaitBackoff.spins);
static_assert(spin_rounds_for(INT64_MAX, 256) == kActiveWaitBackoff.spins);

namespace {
std::mutex g_start_lock;

int default_threads(int &out) {
  env::reader r;
  if (r.integer("WEFT_NUM_THREADS", 1, kMaxWorkers, out, "a thread count"))
    return WEFT_OK;
  if (!r.ok())
    return set_error(WEFT_EINVAL, "%s", r.error().c_str());
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    out = CPU_COUNT(&set);
  else
    out = 1;
  if (out < 1)
    out = 1;
  return WEFT_OK;
}
} // namespace

int runtime::start(int nthreads, const char *call) {
  if (nthreads < 0 || nthreads > kMaxWorkers)
    return set_error(WEFT_EINVAL, "%s: num_threads is %d (must be in [0, %d])",
                     call, nthreads, kMaxWorkers);
  std::lock_guard<std::mutex> lk(g_start_lock);
  if (runtime *rt = g_runtime.load(std::memory_order_acquire)) {
    if (nthreads == 0 || nthreads == rt->initial_team().size())
      return WEFT_OK;
    return set_error(WEFT_ESTATE,
                     "%s: weft already runs with %d threads (asked for %d); "
                     "call weft_shutdown first",
                     call, rt->initial_team().size(), nthreads);
  }
  if (nthreads == 0)
    if (int rc = default_threads(nthreads); rc != WEFT_OK)
      return rc;
  {
    static const char *const kWindows[] = {"auto", "narrow", "wide"};
    int mode = 0;
    env::reader r;
    if (!r.choice("WEFT_THROTTLE_WINDOW", kWindows, 3, mode) && !r.ok())
      return set_error(WEFT_EINVAL, "%s", r.error().c_str());
    g_throttle_window = static_cast<throttle_window>(mode);
    static const char *const kGrains[] = {"auto", "fine", "coarse"};
    int grain = 0;
    if (!r.choice("WEFT_THROTTLE_GRAIN", kGrains, 3, grain) && !r.ok())
      return set_error(WEFT_EINVAL, "%s", r.error().c_str());
    g_throttle_grain = static_cast<throttle_grain>(grain);
    // WEFT_WAIT_POLICY is checked even when a front end's request
    // (OMP_WAIT_POLICY) overrides it.
    static const char *const kWaits[] = {"active", "passive"};
    int wait = -1;
    if (!r.choice("WEFT_WAIT_POLICY", kWaits, 2, wait) && !r.ok())
      return set_error(WEFT_EINVAL, "%s", r.error().c_str());
    g_wait_policy =
        wait < 0 ? wait_policy::standard : static_cast<wait_policy>(wait + 1);
    if (g_wait_policy_request != wait_policy::standard)
      g_wait_policy = g_wait_policy_request;
    switch (g_wait_policy) {
    case wait_policy::standard:
      g_wait_backoff = kWaitBackoff;
      g_between_teams_backoff = kBetweenTeamsBackoff;
      break;
    case wait_policy::active:
      g_wait_backoff = kActiveWaitBackoff;
      g_between_teams_backoff = {kActiveWaitBackoff.spins,
                                 kBetweenTeamsBackoff.yields,
                                 kActiveWaitBackoff.max_pause};
      break;
    case wait_policy::passive:
      g_wait_backoff = kPassiveWaitBackoff;
      g_between_teams_backoff = kPassiveWaitBackoff;
      break;
    }
    if (g_wait_pauses_request >= 0) {
      const int spins = spin_rounds_for(g_wait_pauses_request, 256);
      g_wait_backoff = {spins, g_wait_backoff.yields, 256};
      g_between_teams_backoff = {spins, g_between_teams_backoff.yields, 256};
    }
  }
  const char *e = env::get("WEFT_ENGINE");
  std::string name = e ? e : "sw";
  std::unique_ptr<dependency_engine> engine = make_engine(name, nthreads);
  if (!engine)
    return set_error(WEFT_EINVAL, "WEFT_ENGINE=%s: unknown engine (known: %s)",
                     name.c_str(), engine_names());
  const char *we = env::get("WEFT_WS_ENGINE");
  std::string ws_name = we ? we : "sw";
  std::unique_ptr<worksharing_engine> ws = make_ws_engine(ws_name);
  if (!ws)
    return set_error(WEFT_EINVAL,
                     "WEFT_WS_ENGINE=%s: unknown work-sharing engine (known: "
                     "%s)",
                     ws_name.c_str(), ws_engine_names());
  if (int rc = trace::start_from_env(engine->name(), nthreads); rc != WEFT_OK)
    return rc;
  new runtime(nthreads, std::move(engine), std::move(ws));
  return WEFT_OK;
}

namespace {
// Waits that only yield: the thread waited for may need this core.
inline constexpr backoff_policy kYieldBackoff{0, backoff_policy::kForever};
void native_member(worker &w, int, void *) {
  w.wait_until([&w] { return w.rt().stopping(); });
}
} // namespace

namespace {
// A child of fork() has only the thread that forked: the runtime's other
// workers do not exist there. Forget the parent's runtime (its memory is
// left as it is) so that the child's first call starts one of its own.
void forget_runtime_in_child() {
  g_runtime.store(nullptr, std::memory_order_relaxed);
  tl_worker = nullptr;
  trace::forget_in_child();
}
std::once_flag g_atfork_once;
} // namespace

runtime::runtime(int nthreads, std::unique_ptr<dependency_engine> engine,
                 std::unique_ptr<worksharing_engine> ws_engine)
    : engine_(std::move(engine)), ws_engine_(std::move(ws_engine)),
      workers_(new worker *[kMaxWorkers + 1]()),
      pools_(new task_pool *[kMaxWorkers + 1]()),
      side_pools_(new task_pool *[kMaxWorkers + 1]()) {
  asymmetric_fence_init();
  if (ws_engine_->allocates_descriptors())
    descriptor_bins_ = ws_engine_.get();
  std::call_once(g_atfork_once, [] {
    pthread_atfork(nullptr, nullptr, forget_runtime_in_child);
  });
  worker *w0 = new_worker(false);
  team0_ = new team(*this, nthreads);
  team0_->body = native_member;
  team0_->end_barrier = false;
  w0->enter_team(team0_, 0);
  tl_worker = w0;
  g_runtime.store(this, std::memory_order_release);
  team0_->inside.store(nthreads - 1, std::memory_order_relaxed);
  for (int i = 1; i < nthreads; ++i) {
    worker *w = new_worker(true);
    team0_->slot(i).w = w;
    w->assign(team0_, i);
  }
  watchdog_ = std::make_unique<wait_watchdog>(*this);
  engine_->start(*this);
}

worker *runtime::new_worker(bool with_thread) {
  std::lock_guard<std::mutex> lk(workers_lock_);
  int id = nworkers_.load(std::memory_order_relaxed);
  if (id > kMaxWorkers)
    fatal("more than %d threads: weft's limit", kMaxWorkers + 1);
  auto *w = new worker(*this, id);
  workers_[id] = w;
  pools_[id] = &w->pool();
  side_pools_[id] = &w->side_pool();
  if (trace::on())
    w->trace_ = trace::attach(id);
  nworkers_.store(id + 1, std::memory_order_release);
  if (with_thread) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (std::size_t sz = g_worker_stack_size)
      if (int rc = pthread_attr_setstacksize(&attr, sz); rc != 0)
        fatal("cannot use a thread stack of %zu bytes: %s", sz,
              std::strerror(rc));
    pthread_t th;
    auto main = [](void *p) -> void * {
      auto *me = static_cast<worker *>(p);
      tl_worker = me;
      me->thread_main();
      tl_worker = nullptr;
      return nullptr;
    };
    if (int rc = pthread_create(&th, &attr, main, w); rc != 0)
      fatal("cannot start worker thread %d: %s", id, std::strerror(rc));
    pthread_attr_destroy(&attr);
    threads_.push_back(th);
  }
  return w;
}

worker *runtime::adopt_thread() {
  worker *w = new_worker(false);
  auto *t = new team(*this, 1);
  w->enter_team(t, 0);
  tl_worker = w;
  return w;
}

runtime::~runtime() {
  worker &w = *tl_worker;
  {
    wait_scope ws(w.wait_state(), wait_kind::shutdown, w.root());
    wait_all_tasks(w);
  }
  watchdog_.reset();
  wait_teams_left();
  stopping_.store(true, std::memory_order_seq_cst);
  team0_->wake_all(&w);
  for (backoff b(kYieldBackoff);
       team0_->inside.load(std::memory_order_acquire) != 0;)
    b.pause();
  int n = nthreads();
  for (int i = 0; i < n; ++i)
    if (workers_[i] != &w)
      workers_[i]->assign(nullptr, 0);
  for (pthread_t t : threads_)
    pthread_join(t, nullptr);
  if (stats_requested())
    print_stats();
  if (std::exception_ptr *e = w.root()->exc.exchange(nullptr)) {
    std::fprintf(stderr, "weft: shutdown with an exception from a task that "
                         "nobody waited for\n");
    delete e;
  }
  w.leave_team({nullptr, nullptr, 0, nullptr});
  if (trace::on())
    trace::stop(true); // every other worker has exited
  g_runtime.store(nullptr, std::memory_order_release);
  tl_worker = nullptr;
  // Blocks travel between pools: destroy the engine state first, then the
  // workers (each frees the slabs it allocated).
  engine_->stop();
  engine_.reset();
  delete team0_;
  for (int i = 0; i < n; ++i)
    delete workers_[i];
}

void runtime::wait_all_tasks(worker &w) {
  taskwait(w);
  // Not wait_until: it may sleep, and the worker that finishes the last
  // task (in the native team's loop) has no reason to wake us.
  // Jobs from outside the team too (every submitted job runs).
  for (backoff b(kYieldBackoff);
       !team0_->tasks_done() || team0_->external().maybe_nonempty();)
    if (!w.help_once() && !w.run_external())
      b.pause();
}

} // namespace weft
