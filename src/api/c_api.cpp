// weft.h and the C++ API's entry points: argument checking, starting the
// runtime on first use, and translating calls to the core.
#include "base/error.hpp"
#include "core/in_place.hpp"
#include "core/runtime.hpp"
#include "core/trace_points.hpp"

#include <weft/weft.h>
#include <weft/weft.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <string>
#include <vector>

namespace weft {
namespace {

std::mutex g_start_lock;
bool g_atexit_registered = false;

void shutdown_at_exit() {
  worker *w = tl_worker;
  runtime *rt = g_runtime.load(std::memory_order_acquire);
  // Only the starting thread, outside tasks, may stop the runtime.
  if (rt && w && w->id() == 0 && w->current() == w->root())
    delete rt;
}

int start(int nthreads, const char *call) {
  if (int rc = runtime::start(nthreads, call); rc != WEFT_OK)
    return rc;
  std::lock_guard<std::mutex> lk(g_start_lock);
  if (!g_atexit_registered) {
    std::atexit(shutdown_at_exit);
    g_atexit_registered = true;
  }
  return WEFT_OK;
}

// current_worker when the thread has none: starts the runtime and returns
// the worker, or fails (nullptr, rc set).
__attribute__((noinline)) worker *first_worker(const char *call, int &rc) {
  if (g_runtime.load(std::memory_order_acquire)) {
    rc = set_error(WEFT_ETHREAD,
                   "%s: called from a thread weft does not know (only the "
                   "thread that started weft and tasks may call it)",
                   call);
    return nullptr;
  }
  rc = start(0, call);
  return rc == WEFT_OK ? tl_worker : nullptr;
}

// The calling thread's worker, starting the runtime on first use. Inline:
// every spawn asks, and a thread of a running runtime has one. (The
// caller's w never has its address taken, so it stays in a register.)
__attribute__((always_inline)) inline int current_worker(const char *call,
                                                         worker *&w) {
  w = tl_worker;
  if (__builtin_expect(w != nullptr, 1))
    return WEFT_OK;
  int rc;
  w = first_worker(call, rc);
  return rc;
}

// A caller's mode as the int it passed: an out-of-range value must be
// reported, and loading it as the enum type would already be undefined.
static_assert(sizeof(weft_dep_mode) == sizeof(int));
int raw_mode(const weft_dep_mode *m) {
  int v;
  std::memcpy(&v, m, sizeof v);
  return v;
}

int check_deps_list(const char *call, const weft_dep *deps, int ndeps);

// Inline for the common call without dependences.
__attribute__((always_inline)) inline int
check_deps(const char *call, const weft_dep *deps, int ndeps) {
  return ndeps == 0 ? WEFT_OK : check_deps_list(call, deps, ndeps);
}

int check_deps_list(const char *call, const weft_dep *deps, int ndeps) {
  if (ndeps < 0)
    return set_error(WEFT_EINVAL, "%s: ndeps is %d (must be >= 0)", call,
                     ndeps);
  if (ndeps > 0 && !deps)
    return set_error(WEFT_EINVAL, "%s: deps is NULL but ndeps is %d", call,
                     ndeps);
  for (int i = 0; i < ndeps; ++i) {
    if (!deps[i].addr)
      return set_error(WEFT_EINVAL, "%s: deps[%d].addr is NULL", call, i);
    int m = raw_mode(&deps[i].mode);
    if (m < WEFT_IN || m > WEFT_MUTEXINOUTSET)
      return set_error(WEFT_EINVAL,
                       "%s: deps[%d].mode is %d (not in, out, inout, inoutset "
                       "or mutexinoutset)",
                       call, i, m);
  }
  return WEFT_OK;
}

// weft_spawn_copy runs a throttled task in place with its copy on the stack
// up to this size (larger ones take the descriptor's path).
constexpr std::size_t kInPlaceCopy = 256;

// weft_spawn_args runs a throttled task in place with up to this many
// arguments (copied on the stack).
constexpr int kInPlaceArgs = 32;

// weft_spawn_args run in place: fn and the copy of its arguments.
struct args_call {
  weft_args_fn fn;
  void **args;
};
void call_args(void *p) {
  auto *c = static_cast<args_call *>(p);
  c->fn(c->args);
}

int submit(worker &w, task *t, const weft_dep *deps, int ndeps, int prio) {
  t->priority = prio;
  return w.rt().spawn(w, t, deps, ndeps);
}

// weft_trace_phase_begin / _end.
int trace_phase(const char *call, const char *name, trace::phase_edge e) {
  worker *w;
  if (int rc = current_worker(call, w); rc != WEFT_OK)
    return rc;
  if (!trace::valid_phase_name(name))
    return set_error(WEFT_EINVAL,
                     "%s: name %s%s%s is not 1-%zu letters, digits, "
                     "'_', '-' or '.'",
                     call, name ? "'" : "", name ? name : "NULL",
                     name ? "'" : "", trace::kPhaseNameMax);
  trace_point::phase(*w, e, name);
  return WEFT_OK;
}

// weft_spawn but for its common case: checks, then the throttle's answer
// (in_place_now), else a descriptor for the engine.
__attribute__((noinline)) int spawn_general(weft_task_fn fn, void *arg,
                                            const weft_dep *deps, int ndeps) {
  worker *w;
  if (int rc = current_worker("weft_spawn", w); rc != WEFT_OK)
    return rc;
  if (!fn)
    return set_error(WEFT_EINVAL, "weft_spawn: fn is NULL");
  if (int rc = check_deps("weft_spawn", deps, ndeps); rc != WEFT_OK)
    return rc;
  // Too many unfinished children and nothing stops it: run it here, before
  // any descriptor is allocated. Traced, one with dependences (the throttle
  // found them satisfied) gives them to the trace.
  if (runtime::in_place_now(*w, deps, ndeps)) {
    w->run_in_place_traced_here(fn, arg, TASK_THROTTLED, deps, ndeps);
    return WEFT_OK;
  }
  return submit(*w, w->alloc_task(fn, arg), deps, ndeps, 0);
}

} // namespace

// ---- C++ API entry points ---------------------------------------------------
namespace detail {

int task_create(const char *call, weft_task_fn fn, std::size_t size,
                const weft_dep *deps, int ndeps, int priority, void **handle,
                void **payload) {
  worker *w;
  if (int rc = current_worker(call, w); rc != WEFT_OK)
    return rc;
  if (int rc = check_deps(call, deps, ndeps); rc != WEFT_OK)
    return rc;
  if (priority < 0)
    return set_error(WEFT_EINVAL, "%s: priority is %d (must be >= 0)", call,
                     priority);
  if (priority == 0 && runtime::in_place_now(*w, deps, ndeps)) {
    *handle = *payload = nullptr; // the caller runs it here (run_here)
    return WEFT_OK;
  }
  task *t = w->alloc_task(fn, nullptr);
  t->arg = w->alloc_payload(t, size, 16);
  *handle = t;
  *payload = t->arg;
  return WEFT_OK;
}

void run_here(weft_task_fn fn, void *arg) {
  tl_worker->run_in_place(fn, arg, TASK_THROTTLED);
}

void run_here_deps(weft_task_fn fn, void *arg, const weft_dep *deps,
                   int ndeps) {
  // As weft_spawn: a traced task with dependences gives them to the trace
  // (run_in_place passes them to run_inline when tracing).
  tl_worker->run_in_place(fn, arg, TASK_THROTTLED, deps, ndeps);
}

int task_submit(void *handle, const weft_dep *deps, int ndeps, int priority) {
  return submit(*tl_worker, static_cast<task *>(handle), deps, ndeps, priority);
}

void task_discard(void *handle) {
  tl_worker->free_task(static_cast<task *>(handle));
}

std::exception_ptr take_exception() { return take_pending_exception(); }

} // namespace detail
} // namespace weft

// ---- C API ------------------------------------------------------------------
using namespace weft;

extern "C" {

int weft_init(int num_threads) { return start(num_threads, "weft_init"); }

int weft_shutdown(void) {
  std::lock_guard<std::mutex> lk(g_start_lock);
  runtime *rt = g_runtime.load(std::memory_order_acquire);
  if (!rt)
    return WEFT_OK;
  worker *w = tl_worker;
  if (!w || w->id() != 0)
    return set_error(WEFT_ESTATE, "weft_shutdown: must be called by the "
                                  "thread that started weft");
  if (w->current() != w->root())
    return set_error(WEFT_ESTATE, "weft_shutdown: called from inside a task");
  delete rt;
  return WEFT_OK;
}

int weft_num_threads(void) {
  if (runtime *rt = g_runtime.load(std::memory_order_acquire))
    return rt->initial_team().size();
  worker *w;
  if (current_worker("weft_num_threads", w) != WEFT_OK)
    return -1;
  return w->rt().initial_team().size();
}

int weft_thread_id(void) { return tl_worker ? tl_worker->id() : -1; }

int weft_spawn(weft_task_fn fn, void *arg, const weft_dep *deps, int ndeps) {
  // A throttled creator's task without dependences between two rechecks
  // (the gate open: runtime::in_place_open) runs here at once, before any
  // descriptor is allocated (as the OpenMP front end does).
  // Everything else (the first call, bad arguments, dependences, a
  // recheck) takes spawn_general. Both are tail calls, so that this
  // function has no frame and each way pays only its own.
  if (__builtin_expect(ndeps != 0, 0))
    return spawn_general(fn, arg, deps, ndeps);
  worker *w = tl_worker;
  if (__builtin_expect(w != nullptr && fn != nullptr, 1) &&
      runtime::in_place_open(*w)) {
    w->run_in_place(fn, arg, TASK_THROTTLED);
    return WEFT_OK;
  }
  return spawn_general(fn, arg, deps, ndeps);
}

int weft_spawn_copy(weft_task_fn fn, const void *arg, size_t arg_size,
                    const weft_dep *deps, int ndeps,
                    const weft_task_attr *attr) {
  worker *w;
  if (int rc = current_worker("weft_spawn_copy", w); rc != WEFT_OK)
    return rc;
  if (!fn)
    return set_error(WEFT_EINVAL, "weft_spawn_copy: fn is NULL");
  if (!arg && arg_size > 0)
    return set_error(WEFT_EINVAL,
                     "weft_spawn_copy: arg is NULL but arg_size "
                     "is %zu",
                     arg_size);
  if (int rc = check_deps("weft_spawn_copy", deps, ndeps); rc != WEFT_OK)
    return rc;
  int prio = attr ? attr->priority : 0;
  if (prio < 0)
    return set_error(WEFT_EINVAL,
                     "weft_spawn_copy: attr->priority is %d "
                     "(must be >= 0)",
                     prio);
  if (prio == 0 && arg_size <= kInPlaceCopy &&
      runtime::in_place_now(*w, deps, ndeps)) {
    // In place, before any descriptor (as weft_spawn): the copy on the stack.
    alignas(16) unsigned char copy[kInPlaceCopy];
    if (arg_size)
      std::memcpy(copy, arg, arg_size);
    w->run_inline(fn, copy, TASK_THROTTLED, deps, ndeps);
    return WEFT_OK;
  }
  task *t = w->alloc_task(fn, nullptr);
  t->arg = w->alloc_payload(t, arg_size, 16);
  if (arg_size)
    std::memcpy(t->arg, arg, arg_size);
  return submit(*w, t, deps, ndeps, prio);
}

int weft_spawn_args(weft_args_fn fn, int nargs, void *const *args,
                    const weft_dep_mode *types) {
  worker *w;
  if (int rc = current_worker("weft_spawn_args", w); rc != WEFT_OK)
    return rc;
  if (!fn)
    return set_error(WEFT_EINVAL, "weft_spawn_args: fn is NULL");
  if (nargs < 0)
    return set_error(WEFT_EINVAL, "weft_spawn_args: nargs is %d (must be >= 0)",
                     nargs);
  if (nargs > 0 && (!args || !types))
    return set_error(WEFT_EINVAL, "weft_spawn_args: %s is NULL but nargs is %d",
                     !args ? "args" : "types", nargs);
  weft_dep local[32];
  std::vector<weft_dep> heap;
  weft_dep *deps = local;
  if (nargs > 32) {
    heap.resize(nargs);
    deps = heap.data();
  }
  int ndeps = 0;
  for (int i = 0; i < nargs; ++i) {
    int m = raw_mode(&types[i]);
    if (m < WEFT_VALUE || m > WEFT_MUTEXINOUTSET)
      return set_error(WEFT_EINVAL,
                       "weft_spawn_args: types[%d] is %d (not a weft_dep_mode)",
                       i, m);
    if (m == WEFT_VALUE)
      continue;
    if (!args[i])
      return set_error(WEFT_EINVAL,
                       "weft_spawn_args: args[%d] is NULL but types[%d] makes "
                       "it a dependence",
                       i, i);
    deps[ndeps++] = {args[i], static_cast<weft_dep_mode>(m)};
  }
  if (nargs <= kInPlaceArgs && runtime::in_place_now(*w, deps, ndeps)) {
    // In place, before any descriptor (as weft_spawn): fn gets a copy of
    // args, as it would in a task.
    void *copy[kInPlaceArgs];
    if (nargs)
      std::memcpy(copy, args, sizeof(void *) * static_cast<std::size_t>(nargs));
    args_call c{fn, copy};
    w->run_inline(call_args, &c, TASK_THROTTLED, deps, ndeps);
    return WEFT_OK;
  }
  task *t = w->alloc_task(
      reinterpret_cast<weft_task_fn>(reinterpret_cast<void *>(fn)), nullptr);
  t->flags |= TASK_ARGS;
  std::size_t bytes = sizeof(void *) * static_cast<std::size_t>(nargs);
  t->arg = w->alloc_payload(t, bytes, 16);
  if (bytes)
    std::memcpy(t->arg, args, bytes);
  return submit(*w, t, deps, ndeps, 0);
}

int weft_trace_phase_begin(const char *name) {
  return weft::trace_phase("weft_trace_phase_begin", name,
                           weft::trace::phase_edge::begin);
}

int weft_trace_phase_end(const char *name) {
  return weft::trace_phase("weft_trace_phase_end", name,
                           weft::trace::phase_edge::end);
}

int weft_taskwait(void) {
  worker *w;
  if (int rc = current_worker("weft_taskwait", w); rc != WEFT_OK)
    return rc;
  return w->rt().taskwait(*w);
}

int weft_taskwait_on(const void *addr) {
  worker *w;
  if (int rc = current_worker("weft_taskwait_on", w); rc != WEFT_OK)
    return rc;
  if (!addr)
    return set_error(WEFT_EINVAL, "weft_taskwait_on: addr is NULL");
  weft_dep d{addr, WEFT_INOUT};
  return w->rt().taskwait_deps(*w, &d, 1);
}

int weft_taskwait_deps(const weft_dep *deps, int ndeps) {
  worker *w;
  if (int rc = current_worker("weft_taskwait_deps", w); rc != WEFT_OK)
    return rc;
  if (int rc = check_deps("weft_taskwait_deps", deps, ndeps); rc != WEFT_OK)
    return rc;
  return w->rt().taskwait_deps(*w, deps, ndeps);
}

int weft_taskgroup_begin(void) {
  worker *w;
  if (int rc = current_worker("weft_taskgroup_begin", w); rc != WEFT_OK)
    return rc;
  return w->rt().taskgroup_begin(*w);
}

int weft_taskgroup_end(void) {
  worker *w;
  if (int rc = current_worker("weft_taskgroup_end", w); rc != WEFT_OK)
    return rc;
  return w->rt().taskgroup_end(*w);
}

const char *weft_last_error(void) { return last_error(); }

int weft_stats_get(weft_stats *out) {
  if (!out)
    return set_error(WEFT_EINVAL, "weft_stats_get: out is NULL");
  worker *w;
  if (int rc = current_worker("weft_stats_get", w); rc != WEFT_OK)
    return rc;
  *out = w->rt().stats();
  return WEFT_OK;
}

int weft_engine_counters(weft_counter *out, int max) {
  if (max < 0 || (max > 0 && !out))
    return set_error(WEFT_EINVAL,
                     "weft_engine_counters: max=%d with out=%p (max must be "
                     ">= 0, out non-NULL when max > 0)",
                     max, static_cast<void *>(out));
  worker *w;
  if (int rc = current_worker("weft_engine_counters", w); rc != WEFT_OK)
    return rc;
  std::vector<engine_counter> cs = w->rt().engine_counters();
  for (int i = 0; i < max && i < static_cast<int>(cs.size()); ++i)
    out[i] = weft_counter{cs[i].name, cs[i].value};
  return static_cast<int>(cs.size());
}

} // extern "C"
