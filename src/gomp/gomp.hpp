// The OpenMP front end: libgomp's ABI (the GOMP_* entry points GCC emits and
// the omp_* user API) on weft's core. This header holds the front end's
// state: the ICVs, the per-team state (work shares, single, copyprivate,
// cancellation) and the per-member state. Scheduling stays in the core.
#pragma once

#include "core/runtime.hpp"
#include "engines/worksharing_engine.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

// Every entry point of libgomp's ABI that weft implements.
#define WEFT_GOMP_API extern "C" __attribute__((visibility("default")))

namespace weft::gomp {

// GCC's schedule codes (GOMP_loop_start's sched argument, omp_sched_t).
enum sched : int {
  sched_runtime = 0,
  sched_static = 1,
  sched_dynamic = 2,
  sched_guided = 3,
  sched_auto = 4,
};
inline constexpr int kSchedMonotonic = static_cast<int>(0x80000000u);

// GOMP_task / GOMP_taskloop flags.
inline constexpr unsigned kTaskUntied = 1u << 0, kTaskFinal = 1u << 1,
                          kTaskMergeable = 1u << 2, kTaskDepend = 1u << 3,
                          kTaskPriority = 1u << 4, kTaskUp = 1u << 8,
                          kTaskGrainsize = 1u << 9, kTaskIf = 1u << 10,
                          kTaskNogroup = 1u << 11, kTaskReduction = 1u << 12,
                          kTaskDetach = 1u << 13, kTaskStrict = 1u << 14;

// GOMP_cancel's which.
inline constexpr int kCancelParallel = 1, kCancelLoop = 2, kCancelSections = 4,
                     kCancelTaskgroup = 8;

// Process-wide settings from the environment (read once).
struct global_icvs {
  std::vector<int> nthreads_list; // OMP_NUM_THREADS, one entry per level
  std::vector<int> bind_list;     // OMP_PROC_BIND (omp_proc_bind_t values)
  int run_sched = sched_dynamic;  // OMP_SCHEDULE (libgomp's default)
  long run_chunk = 1;
  bool dyn = false;
  std::atomic<int> max_active_levels{1};
  int thread_limit = 0x7fffffff;
  bool cancellation = false;
  int max_task_priority = 0;
  std::size_t stacksize = 0;
  int wait_policy = -1;              // -1 unset, 0 passive, 1 active
  bool wait_policy_from_omp = false; // else from WEFT_WAIT_POLICY, or unset
  int64_t spin_count = -1; // GOMP_SPINCOUNT (-1 unset; INT64_MAX infinite)
  int default_device = 0;
  std::string places;
  std::vector<std::vector<int>> place_list; // OMP_PLACES, expanded
  bool display_env = false;
  bool display_affinity = false; // OMP_DISPLAY_AFFINITY
  std::string affinity_format = "level %L thread %i affinity %A";
  bool display_verbose = false;
  int num_procs = 1;
};
global_icvs &icv_global();

// The ICVs of an implicit task (the data environment of one member).
struct task_icvs {
  int nthreads = 1;
  int nthreads_level = 0; // index into nthreads_list for the next level
  int run_sched = sched_dynamic;
  long run_chunk = 1;
  bool dyn = false;
  int bind = 0;
  int default_device = 0;
  // max-active-levels-var when set inside an explicit task; -1: the
  // device's (global_icvs::max_active_levels).
  int max_active_levels = -1;
};

// The ICVs of an explicit task that changed them (a setter ran in it) or
// inherited them from a creator that had them: the worker's task data
// (worker::set_task_data) while the task runs. Other explicit tasks use
// their thread's implicit task's ICVs. owned: allocated by a setter and
// freed at the task's end; else it lives in the task's payload or frame.
struct task_env {
  task_icvs icv;
  bool owned = false;
};

inline constexpr int kWorkShareRing = 16;

// One worksharing construct (loop or sections) in flight.
struct alignas(64) work_share {
  std::atomic<uint64_t> ready{0};    // index + 1 once initialised
  std::atomic<uint64_t> free_for{0}; // index allowed to initialise next
  std::atomic<int> ended{0};         // members that left it
  ws_state ws;                       // the engine's (dynamic, guided)
  // The loop: logical iterations map to start + i * incr.
  bool ull = false;
  long start = 0, incr = 1, end = 0;
  unsigned long long ustart = 0, uincr = 1, uend = 0;
  uint64_t count = 0;
  int kind = sched_static;
  uint64_t chunk = 0;
  bool ordered = false;
  // Written per chunk of an ordered loop: away from the read-mostly fields.
  alignas(64) std::atomic<uint64_t> ordered_next{0}; // first unreleased
  std::atomic<bool> cancelled{false};
  // Shared scratch memory requested through GOMP_loop_start's mem.
  void *mem = nullptr;
  uintptr_t *task_reductions = nullptr;
  // doacross
  std::atomic<uint8_t> *posted = nullptr;
  std::vector<uint64_t> dims;
};

struct alignas(64) member_state {
  task_icvs icv;
  uint64_t ws_index = 0;     // work shares entered
  uint64_t single_index = 0; // single constructs entered
  work_share *ws = nullptr;  // the current one
  bool static_loop = false;  // current loop's chunks are computed here
  uint64_t static_trip = 0;  // next static chunk of this member
  uint64_t cur_begin = 0, cur_end = 0; // current chunk (ordered)
  bool holds_order = false; // cur chunk not yet released to ordered_next
};

struct gomp_team {
  int level = 0;        // omp_get_level
  int active_level = 0; // omp_get_active_level
  gomp_team *parent = nullptr;
  int parent_thread = 0; // the master's thread number in parent
  std::vector<member_state> members;
  bool cancellable = false; // OMP_CANCELLATION: check the flags below
  work_share ring[kWorkShareRing];
  alignas(64) std::atomic<uint64_t> single_count{0};
  std::atomic<void *> copyprivate{nullptr};
  alignas(64) std::atomic<bool> cancelled{false};
  taskgroup_state *reduction_group = nullptr; // parallel reduction(task)
};

// ---- access -----------------------------------------------------------------
struct context {
  worker *w;
  team *t;
  gomp_team *g;
  int id; // omp_get_thread_num
  member_state &m() { return g->members[static_cast<size_t>(id)]; }
  // The ICVs of the current task's data environment.
  task_icvs &icv() {
    if (void *d = w->task_data())
      return static_cast<task_env *>(d)->icv;
    return m().icv;
  }
  // The same, for a setter: in an explicit task, its own copy from then on.
  task_icvs &icv_to_change();
};
// max-active-levels-var of the current task.
int max_active_levels(context &c);

// The calling thread's context, starting the runtime (and adopting a
// thread weft does not know as an initial thread) on first use.
context ctx_slow();
inline context ctx() {
  worker *w = tl_worker;
  if (__builtin_expect(w != nullptr, 1)) {
    team *t = w->current_team();
    if (__builtin_expect(t->user != nullptr, 1))
      return {w, t, static_cast<gomp_team *>(t->user), w->slot_index()};
  }
  return ctx_slow();
}
worksharing_engine &ws_engine();
inline runtime &rt() { return *g_runtime.load(std::memory_order_relaxed); }

// Runs fn(data) on a new team (GOMP_parallel and friends); returns the
// team size. reductions: parallel reduction(task) data, or nullptr.
// pre, when given, sets up the team's first work share before the members
// start (the combined parallel loop and parallel sections entry points).
using preinit_fn = void (*)(gomp_team &g, int nthreads, const task_icvs &icv,
                            const void *arg);
unsigned parallel(void (*fn)(void *), void *data, unsigned num_threads,
                  unsigned flags, uintptr_t *reductions,
                  preinit_fn pre = nullptr, const void *pre_arg = nullptr);
void parallel_start(void (*fn)(void *), void *data, unsigned num_threads,
                    preinit_fn pre, const void *pre_arg);
void parallel_end();
// The team size a parallel construct would get (OpenMP's algorithm).
unsigned resolve_num_threads(context &c, unsigned requested, bool if_true);

// Work shares (loop.cpp).
struct loop_desc {
  long start, end, incr;
  int sched;
  long chunk;
};
void preinit_loop(gomp_team &g, int nthreads, const task_icvs &icv,
                  const void *desc); // a loop_desc
// The team's first work share, set up by the master before the members
// start (combined parallel loops and sections): claim, describe, done.
work_share &ws_preclaim(gomp_team &g);
void ws_preclaim_done(gomp_team &g, work_share &ws);
work_share &ws_enter(context &c, bool *first);
// Entering a loop, sections or scope: the work share, with GCC's task
// reductions (a taskgroup per member, the copies allocated by the first)
// and shared scratch memory (*mem: its size in, its address out). The
// first member describes the work share between the two calls.
work_share &ws_begin(context &c, uintptr_t *reductions, void **mem,
                     bool *first);
void ws_begin_done(context &c, work_share &ws, bool first,
                   uintptr_t *reductions, void **mem);
void ws_leave(context &c);
// The end of a loop or sections: leave the work share, then the barrier
// (none for nowait; a cancellable one, which reports cancellation).
void ws_end(context &c);
bool ws_end_cancel(context &c);

// Task reductions (task.cpp). data is GCC's reduction descriptor (see
// task.cpp); setup allocates the per-thread copies (or shares orig's).
void reduction_setup(uintptr_t *data, uintptr_t *old, uintptr_t *orig,
                     unsigned nthreads);
// Open a taskgroup in the current task that inherits the enclosing task
// reductions (GOMP_taskgroup_start and worksharing task reductions).
void taskgroup_open(context &c);
// Register data in the taskgroup just opened.
void register_reductions(context &c, uintptr_t *data, uintptr_t *orig);
taskgroup_state *innermost_group(task *t);
// The payload of a deferred task t whose fn is set: room for the program's
// size bytes of data, returned; t->fn and t->arg are set. The data is
// preceded by a header when the task must be skipped once region is
// cancelled (region non-null) or inherits the creating task's ICVs.
void *task_payload(worker &w, task *t, std::size_t size, std::size_t align,
                   const gomp_team *region);
// Runs fn(data) here as an included task (worker::run_inline) in the
// creating task's ICV environment. deps/ndeps: a throttled task's
// dependences (satisfied), for the trace.
void run_included(worker &w, void (*fn)(void *), void *data, uint16_t flags,
                  const weft_dep *deps = nullptr, int ndeps = 0);
// Heap memory for a copy of a task's argument block (freed with free()).
void *aligned_buffer(std::size_t size, std::size_t align);

// Locks used by critical and atomic (lock.cpp): a futex word, 0 free,
// 1 held, 2 held with sleepers. The uncontended paths are inline.
void lock_word_slow(std::atomic<int> &w);
void unlock_word_slow(std::atomic<int> &w);
inline void lock_word(std::atomic<int> &w) {
  int c = 0;
  if (!w.compare_exchange_strong(c, 1, std::memory_order_acquire))
    lock_word_slow(w);
}
inline void unlock_word(std::atomic<int> &w) {
  if (w.exchange(0, std::memory_order_release) == 2)
    unlock_word_slow(w);
}

// At the start of a region: bind the calling member to its place when
// OMP_PROC_BIND asks for it, and print its affinity if asked (omp_api.cpp).
void member_start(context &c);

// Reads the environment (icv.cpp).
void read_environment();
void display_env(bool verbose);

[[noreturn]] void unsupported(const char *what);

} // namespace weft::gomp
