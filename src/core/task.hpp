// The task descriptor: three cache lines from a per-thread pool. Line 0 is what
// the creator writes and the executor reads (plus the words other threads
// update: dependence counts, references, finished children); line 1 is the
// task as a parent and as a predecessor; line 2 holds a small copied payload
// and is only touched when a task carries one.
#pragma once

#include <weft/weft.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>

namespace weft {

struct taskgroup_state;
struct team_slot;
struct succ_chunk; // defined by the engine that uses task::succ_more
struct mutex_set;
class dep_domain;

enum task_flag : uint16_t {
  TASK_ROOT = 1u << 0,   // a thread's implicit task; never freed
  TASK_WAITER = 1u << 1, // taskwait-depend pseudo task on a waiter's stack
  TASK_PAYLOAD_POOL = 1u << 2,  // arg points to a side-pool block
  TASK_PAYLOAD_HEAP = 1u << 3,  // arg points to malloc'ed memory
  TASK_ARGS = 1u << 4,          // weft_spawn_args: fn is a weft_args_fn
  TASK_NO_SUCCESSORS = 1u << 5, // set by the engine: no task can follow it
  TASK_FINAL = 1u << 6,         // OpenMP final: its descendants run included
  TASK_DETACH = 1u << 7,        // completes when its body ended and
                                // task_fulfill was called (OpenMP detach)
  TASK_COMPLETE_ONLY = 1u << 8, // a detached task queued for completion
  TASK_INLINE = 1u << 9,        // run in place (worker::run_inline)
  TASK_BIN = 1u << 10,          // the descriptor is a work-sharing engine's
                                // memory bin (HWSE), not a pool block
  TASK_THROTTLED = 1u << 11,    // run in place by the runtime's throttling,
                                // not because the program asked (tracing)
  TASK_UNTIED = 1u << 12,       // OpenMP untied (recorded; weft never
                                // moves a started task, so it constrains
                                // as a tied one: worker::tied_limit)
};

// task::children packs the finished-children count with two flags and the id
// of the worker waiting in taskwait (so the child that completes the wait can
// wake exactly that worker without reading anything else of the parent).
// The count carries a bias: when the parent's function returns it adds
// kChildEnded - created, so the word is exactly kChildEnded | kChildBias once
// every child is counted, whoever adds last. That add's result alone tells
// who releases the parent: nobody reads the parent after their own atomic
// (it may be recycled by then).
inline constexpr uint64_t kChildCountMask = (uint64_t(1) << 48) - 1;
inline constexpr uint64_t kChildBias = uint64_t(1) << 47;
inline constexpr int kChildWaiterShift = 48;
inline constexpr uint64_t kChildWaiterMask = uint64_t(0x3fff) << 48;
inline constexpr uint64_t kChildWaiting = uint64_t(1) << 62;
inline constexpr uint64_t kChildEnded = uint64_t(1) << 63;
inline constexpr uint64_t kChildAllDone = kChildEnded | kChildBias;
// Finished children in a word read before the parent's end.
inline uint64_t finished_children(uint64_t word) {
  return (word & kChildCountMask) - kChildBias;
}
inline constexpr int kMaxWorkers = 0x3fff;

// task::pending starts at this bias while the creator registers predecessors,
// so that no predecessor's retirement can see zero before registration ends.
inline constexpr int32_t kPendingBias = 1 << 30;

// task::succ_state: number of registered successors | closed (retired).
inline constexpr uint32_t kSuccClosed = 1u << 31;
inline constexpr int kSuccInline = 2;

inline constexpr std::size_t kTaskInlinePayload = 48;

struct alignas(64) task {
  // ---- line 0 ------------------------------------------------------------
  weft_task_fn fn;
  void *arg;
  task *parent;
  taskgroup_state *group;           // innermost taskgroup this task counts in
  std::atomic<uint64_t> children;   // finished children | flags (see above)
  std::atomic<int32_t> pending;     // unfinished predecessors (+ bias)
  std::atomic<int32_t> refs;        // execution + dependence-map references
  std::atomic<uint32_t> succ_state; // successors registered | kSuccClosed
  uint16_t flags;
  uint16_t owner;       // pool (worker) the descriptor came from
  int32_t priority;     // weft_task_attr::priority
  uint32_t engine_data; // engine-private (sw: map slots naming the task,
                        // on this line because the map's owner also
                        // touches refs and succ_state here)
  // ---- line 1 ------------------------------------------------------------
  task *succ_inline[kSuccInline];
  uint64_t created;           // children created (written only by this task)
  dep_domain *domain;         // engine state over this task's children
  taskgroup_state *cur_group; // innermost open taskgroup inside this task
  std::atomic<std::exception_ptr *> exc; // first exception of a waited child
  mutex_set *mutexes;    // mutexinoutset locks to hold while running
  succ_chunk *succ_more; // successors beyond the inline ones
  // ---- line 2 ------------------------------------------------------------
  alignas(64) unsigned char payload[kTaskInlinePayload];
  // The slot of the worker that spawned it (set by runtime::spawn): home->
  // owner is its team. Recorded, not found by walking `parent`: ancestors
  // above the parent may have been freed and recycled by then.
  team_slot *home;
  // TASK_DETACH: completion needs the body's end and the event (2 parts).
  std::atomic<int32_t> detach_parts;
  // The task's id in the trace (WEFT_TRACE); set only while recording.
  uint32_t trace_id;
};
static_assert(sizeof(task) == 192, "task descriptor must be three lines");
static_assert(offsetof(task, succ_inline) == 64);
static_assert(offsetof(task, payload) == 128);

// A taskgroup: counts the tasks created in it and their descendants.
struct taskgroup_state {
  std::atomic<uint64_t> count{0}; // unfinished members | waiting flag/worker
  taskgroup_state *outer = nullptr;
  std::atomic<std::exception_ptr *> exc{nullptr};
  // Cancelled (OpenMP cancel taskgroup): members not yet started are
  // skipped, their completion counted as usual.
  std::atomic<bool> cancelled{false};
  void *user = nullptr; // the front end's (OpenMP task reductions)
  // The task that opened it and the group its opener was in then (the
  // opener's enclosing open group, else the group the opener belongs to):
  // while a member is unfinished, the chain of `up` groups is alive, and
  // each member descends from every opener on it (worker::may_start).
  task *opener = nullptr;
  taskgroup_state *up = nullptr;
};

} // namespace weft
