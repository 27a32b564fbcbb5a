// The trace recorder (WEFT_TRACE=path): per-worker buffers of trace records
// (trace_format.hpp), encoded (compact.hpp) into the worker's chunk each time
// they fill, the chunk written per MiB and at shutdown. The core
// calls the hooks below only after checking on(): with WEFT_TRACE unset each
// hook site costs one load and one well-predicted branch.
//
// Times are taken as raw ticks (the TSC on x86-64, else CLOCK_MONOTONIC ns)
// and written as they are: the header holds the rate, and the readers
// convert. A task takes four timestamps (its creation, the end of its spawn
// segment, its start and its end; the finish segment is not timed apart:
// the next schedule segment of its thread starts at the task's end) and,
// when nothing else is written between its events, two records: a
// task_spawn (task_spawn_dep with a single dependence inside) and a
// task_exec (the schedule segment, start and end; two task_exec in a row
// whose schedule segments chain are one task_exec2). A task run in place by
// its creator takes two (its start, which is its creation, and its end) and
// one task_inline record. The second hook of each pair turns the record the
// first one wrote into the merged kind when nothing was written between
// them, and writes a record of its own otherwise.
#pragma once

#include "trace/trace_format.hpp"

#include <weft/weft.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <ctime>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace weft {
struct task;
class worker;
} // namespace weft

namespace weft::trace {

extern std::atomic<bool> g_on;
// Whether this runtime records a trace.
inline bool on() { return g_on.load(std::memory_order_relaxed); }

// A raw timestamp (see above), taken after every earlier load completed:
// for events that follow what another thread did (finding its task, the
// end of a wait), so that the order of events across threads holds.
inline uint64_t ticks() {
#if defined(__x86_64__)
  _mm_lfence();
  return __rdtsc();
#else
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
#endif
}

// A raw timestamp that may be taken a little early (out of order): for
// events that precede what this thread publishes next (a task's creation,
// its end, the end of an overhead segment).
inline uint64_t ticks_early() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return ticks();
#endif
}

// Opens WEFT_TRACE's file when the variable is set (called by runtime::start
// before the runtime exists). Returns a weft error code: a file that cannot
// be created is WEFT_EINVAL naming the variable and the path.
int start_from_env(const char *engine, int threads);
// Flushes every worker's buffer and closes the file; recording stops. Called
// once no worker records any more. free_buffers = false leaves the buffers
// allocated (at process exit, when idle workers still exist).
void stop(bool free_buffers);

// In a child of fork(): the parent's trace is not the child's; the child
// records nothing (its runtime starts afresh without WEFT_TRACE's file).
void forget_in_child();

struct packer; // a worker's compact chunk in the making (recorder.cpp)

// One worker's buffer of records (times in raw ticks). A full buffer is
// encoded (compact.hpp) into the worker's packer while it is still in the
// cache; the packer is written as a chunk when nearly full.
struct thread_log {
  record *pos = nullptr, *limit = nullptr, *buf = nullptr;
  uint16_t thread = 0;
  uint32_t id_first = 0, next_id = 0, id_end = 0; // this worker's block
                                                  // of task ids
  uint64_t mark = 0;          // end of the last task, 0 if stale
  uint64_t found = 0;         // end of the last schedule segment, 0 if stale
  uint64_t next_sample = 0;   // ticks of the next counter sample
  std::size_t created_at = 0; // index in buf of the last task_create
  packer *packed = nullptr;

  // Room for n consecutive records (writes the buffer out when full).
  record *reserve(std::size_t n) {
    if (static_cast<std::size_t>(limit - pos) < n)
      make_room(n);
    record *r = pos;
    pos += n;
    mark = 0;
    found = 0;
    return r;
  }
  void put(kind k, uint8_t sub, uint32_t count, uint64_t time, uint64_t task,
           uint64_t arg) {
    *reserve(1) = record{k, sub, thread, count, time, task, arg};
  }
  // Whether task id was created by this worker (in its current block).
  bool created_here(uint32_t id) const {
    return id - id_first < next_id - id_first;
  }
  uint32_t fresh_id() {
    if (next_id == id_end)
      new_id_block();
    return next_id++;
  }
  void make_room(std::size_t n);
  void new_id_block();
  // Encodes the buffer's records into the packer (writing it first if
  // they might not fit).
  void flush();
  // Writes the packer's chunk.
  void write_packed();
};

// ---- hooks (only when on()) -------------------------------------------------
// The schedule segment of the task a worker is about to run: from the end
// of its last task (if it did nothing else since) to now, which is also the
// task's start. A task this worker created and made ready itself (its
// immediate successor, `mine`) follows nothing another thread did: its
// start may be read early.
inline void scheduled(thread_log &l, uint32_t id, bool mine = false) {
  uint64_t to = mine && l.created_here(id) ? ticks_early() : ticks();
  uint64_t from = l.mark && l.mark <= to ? l.mark : to;
  l.put(kind::overhead, static_cast<uint8_t>(overhead_kind::schedule), 0, from,
        id, to - from);
  l.found = to;
}
// Task id begins now: its schedule segment's record, if it is the last one
// written, becomes a task_run; else a task_begin.
inline void begin(thread_log &l, uint32_t id) {
  if (l.found && l.pos[-1].task == id) {
    record &r = l.pos[-1];
    r.type = kind::task_run;
    r.arg = r.time;
    r.time = l.found;
    l.found = 0;
  } else {
    l.put(kind::task_begin, 0, 0, ticks(), id, 0);
  }
}
// An overhead segment: its record holds its length in ticks.
inline void overhead(thread_log &l, overhead_kind k, uint32_t id, uint64_t from,
                     uint64_t to) {
  l.put(kind::overhead, static_cast<uint8_t>(k), 0, from, id,
        to > from ? to - from : 0);
}
// Task id's body ended at `at`: merged into its task_run (a task_exec) if
// that is the last record written and the body is under 2^32 ticks; else a
// task_end.
inline void ended(thread_log &l, uint32_t id, uint64_t at) {
  record *r = l.pos - 1;
  if (l.pos != l.buf && r->type == kind::task_run && r->task == id &&
      at >= r->time && at - r->time <= UINT32_MAX) {
    r->type = kind::task_exec;
    r->count = static_cast<uint32_t>(at - r->time);
    // Paired with the task_exec before it when this task's schedule
    // segment started at that one's end.
    record *p = r - 1;
    if (r != l.buf && p->type == kind::task_exec &&
        r->arg == p->time + p->count && p->time - p->arg <= kExec2Max &&
        r->time - r->arg <= kExec2Max && r->count <= kExec2Max) {
      p->type = kind::task_exec2;
      p->arg = exec2_arg(p->time - p->arg, r->time - r->arg, r->count);
      p->task |= uint64_t(id) << 32;
      --l.pos;
    }
  } else {
    l.put(kind::task_end, 0, 0, at, id, 0);
  }
}
// Task id, which ended at `at`, is retired: if nothing was written since
// its end, the thread's next schedule segment starts there.
inline void retired(thread_log &l, uint32_t id, uint64_t at) {
  const record *r = l.pos - 1;
  if (l.pos != l.buf && (r->type == kind::task_exec2
                             ? r->task >> 32 == id
                             : r->task == id && (r->type == kind::task_exec ||
                                                 r->type == kind::task_end)))
    l.mark = at;
}
// Task id's spawn segment, from its creation at `from` to `to`: merged into
// its task_create (a task_spawn) if that is still in the buffer and the
// length fits in 32 bits; with its single dep record folded in too (a
// task_spawn_dep) when that is the last record written.
inline void spawned(thread_log &l, uint32_t id, uint64_t from, uint64_t to) {
  uint64_t d = to > from ? to - from : 0;
  std::size_t n = static_cast<std::size_t>(l.pos - l.buf);
  if (l.created_at < n && l.buf[l.created_at].type == kind::task_create &&
      l.buf[l.created_at].task == id && d <= UINT32_MAX) {
    record &r = l.buf[l.created_at];
    r.arg |= d << 32;
    if (r.count == 1 && l.created_at + 2 == n && l.pos[-1].type == kind::dep) {
      const record &dep = l.pos[-1];
      r.type = kind::task_spawn_dep;
      r.sub = static_cast<uint8_t>(r.sub | dep.sub << 4);
      r.count = static_cast<uint32_t>(dep.arg >> 32);
      r.task = id | (dep.arg << 32);
      --l.pos;
    } else {
      r.type = kind::task_spawn;
    }
  } else {
    overhead(l, overhead_kind::spawn, id, from, to);
  }
}
thread_log *attach(int worker_id);
// The dependences of task_id at r: one dep record when ndeps is 1, else
// deps records of up to three each (deps_records(ndeps) records).
inline std::size_t deps_records(int ndeps) {
  return ndeps == 1 ? 1 : static_cast<std::size_t>(ndeps + 2) / 3;
}
// ndeps >= 2 dependences as deps records at r (out of line: rarer).
void put_packed_deps(const thread_log &l, record *r, const weft_dep *deps,
                     int ndeps);
inline void put_deps(const thread_log &l, record *r, uint64_t task_id,
                     uint64_t at, const weft_dep *deps, int ndeps) {
  if (ndeps == 1)
    *r = record{
        kind::dep, static_cast<uint8_t>(deps[0].mode),      l.thread, 0, at,
        task_id,   reinterpret_cast<uint64_t>(deps[0].addr)};
  else if (ndeps > 1)
    put_packed_deps(l, r, deps, ndeps);
}
// A new task's task_create (and dep records) at `at`; returns its fresh id.
inline uint32_t created(thread_log &l, uint32_t parent_id, const weft_dep *deps,
                        int ndeps, uint8_t flags, uint64_t at) {
  uint32_t id = l.fresh_id();
  record *r = l.reserve(1 + deps_records(ndeps));
  *r = record{
      kind::task_create, flags, l.thread, static_cast<uint32_t>(ndeps), at, id,
      parent_id};
  put_deps(l, r + 1, id, at, deps, ndeps);
  l.created_at = static_cast<std::size_t>(r - l.buf);
  return id;
}
// A task run in place by its creator, created and started at `at`: one
// task_inline record; returns its fresh id.
inline uint32_t inline_begun(thread_log &l, uint32_t parent_id, uint8_t flags,
                             uint64_t at) {
  uint32_t id = l.fresh_id();
  l.put(kind::task_inline, flags, 0, at, id, parent_id);
  return id;
}
// The task run in place ended at `at`: inside its task_inline if that is the
// last record written and the body is under 2^32 ticks; else a task_end.
inline void inline_ended(thread_log &l, uint32_t id, uint64_t at) {
  record *r = l.pos - 1;
  if (l.pos != l.buf && r->type == kind::task_inline && r->task == id &&
      !(r->sub & kInlineEnded) && at >= r->time && at - r->time <= UINT32_MAX) {
    r->sub = static_cast<uint8_t>(r->sub | kInlineEnded);
    r->count = static_cast<uint32_t>(at - r->time);
  } else {
    l.put(kind::task_end, 0, 0, at, id, 0);
  }
}
// A new implicit task (parent: the encountering task's id, 0 for a thread's
// first team): task_create and task_begin.
void implicit_begin(thread_log &l, task *t, uint32_t parent_id);
void wait_begin(thread_log &l, wait_kind k, uint32_t task_id,
                const weft_dep *deps, int ndeps);
// Counter samples, at most one set per worker every sample period.
void sample(thread_log &l, worker &w, uint64_t at);
inline void maybe_sample(thread_log &l, worker &w, uint64_t at) {
  if (__builtin_expect(at >= l.next_sample, 0))
    sample(l, w, at);
}

} // namespace weft::trace
