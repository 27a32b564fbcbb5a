// The trace recorder (WEFT_TRACE=path): each worker writes its records
// straight into its compact chunk (compact.hpp), which is written to the
// file per MiB and at shutdown. The core calls the hooks below only after
// checking on(): with WEFT_TRACE unset each hook site costs one load and one
// well-predicted branch.
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
// one task_inline record; one with a single dependence (its start fenced)
// one task_inline_dep; one with more, a task_create with its dependences, a
// task_begin and a task_end (inline_begun_deps). Up to kInlineRunMax tasks
// run in place right after a timed task_inline or task_inline_dep whose body
// was short (run_max_body), one after the other with nothing recorded
// between them, each like it (parent, flags, dependence), take no clock
// read: their count and the time up to the thread's next record are one
// task_inline_run (version 11), which the readers split (inline_run_begin).
//
// The records that a later hook may still merge (the tail: a task's
// creation until its spawn segment ends, a schedule segment until its task
// starts and ends, a task_exec until the next one pairs with it or not, a
// task_inline until its end) are held as a few fields of the thread_log,
// not written; each is encoded once, when it can no longer change, and any
// other record first writes the tail out. So the bytes are those that
// encoding format 8's merged records (and version 10's task_inline_dep)
// would give (tests/trace/
// direct_writer_test.cpp checks them against a model of that recorder).
#pragma once

#include "trace/compact.hpp"
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

// Hidden in the declaration too (-fvisibility=hidden covers only
// definitions): every hook site's test is then one load relative to the
// instruction pointer, not a load of the GOT entry (relaxed by the linker to
// an lea) and then of the flag. Only libweft's objects read these.
[[gnu::visibility("hidden")]] extern std::atomic<bool> g_on;
// Whether this runtime records a trace.
inline bool on() { return g_on.load(std::memory_order_relaxed); }
// What recording a task run in place costs its thread, in ticks, on
// average over a run of fine ones (a timed task_inline, its two clock
// reads, then untimed tasks of a task_inline_run; measured when recording
// starts): the throttle allows for it (trace_point::in_place_allowance),
// so that a traced program's fine tasks still run in place as they do
// untraced.
[[gnu::visibility("hidden")]] extern uint64_t g_in_place_ticks;
// The same for tasks run in place with a dependence (the timed one's start
// fenced, a task_inline_dep).
[[gnu::visibility("hidden")]] extern uint64_t g_in_place_dep_ticks;

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

// Where a thread_log's full chunks go: the trace file (null), or a test's
// function (records, the compact payload and its size).
using chunk_sink = void (*)(void *ctx, uint16_t thread, std::size_t records,
                            const uint8_t *data, std::size_t bytes);

// One worker's compact chunk in the making (times in raw ticks) and the
// tail of records not yet encoded (above).
struct thread_log {
  uint8_t *pos = nullptr;   // the chunk's end so far
  uint8_t *limit = nullptr; // room for one more record up to here
  uint8_t *buf = nullptr;
  std::size_t capacity = 0; // buf's bytes
  std::size_t records = 0;  // in the chunk
  compact::state cs;
  uint16_t thread = 0;
  uint32_t id_first = 0, next_id = 0, id_end = 0; // this worker's block
                                                  // of task ids
  uint64_t mark = 0;        // end of the last task, 0 if stale
  uint64_t next_sample = 0; // ticks of the next counter sample
  chunk_sink sink = nullptr;
  void *sink_ctx = nullptr;

  // The tail. tail_exec: a task_exec (e_*) whose successor may pair with it.
  // tail_cur: a schedule segment (c_from to c_start) of task c_id, or its
  // task_run once begun. tail_spawn: a task_create (s_*) whose spawn
  // segment has not ended. tail_inline: a task_inline (i_*) whose body has
  // not ended. At most tail_exec | tail_cur, or one of the others.
  // tail_iend: the task_inline ended at i_end, and the untimed tasks after
  // it (a task_inline_run: the ids up to next_id); tail_more with it: the
  // last of them runs.
  enum : uint8_t {
    tail_exec = 1,
    tail_sched = 2,
    tail_run = 4,
    tail_spawn = 8,
    tail_inline = 16,
    tail_iend = 32,
    tail_more = 64
  };
  uint8_t tail = 0;
  uint32_t done_id = 0; // the task whose end is the last record, if
  bool done = false;    // done (a task_exec, task_exec2 or task_end)
  uint32_t e_id = 0, e_body = 0;
  uint64_t e_from = 0, e_start = 0;
  uint32_t c_id = 0;
  uint64_t c_from = 0, c_start = 0;
  uint32_t s_id = 0, s_parent = 0;
  int s_ndeps = 0;
  uint8_t s_flags = 0;
  uint64_t s_at = 0;
  const weft_dep *s_deps = nullptr; // valid until the spawn segment ends
  uint32_t i_id = 0, i_parent = 0;
  uint8_t i_flags = 0; // with its dependence's mode << 4, if i_dep
  bool i_dep = false;  // a task_inline_dep: its dependence's address in
  uint64_t i_addr = 0; // i_addr
  uint64_t i_at = 0;
  uint64_t i_end = 0;
  // With tail_iend: the id at which untimed tasks stop (kInlineRunMax after
  // the timed one at most, within the id block; at once for
  // no_run_parent's), and the key they must match with i_addr (the timed
  // task's parent, flags and dependence mode, as its begin hook put them:
  // run_key).
  uint32_t r_end = 0;
  uint64_t r_key = 0;
  // A task run in place is untimed (a task_inline_run) only after a timed
  // one whose body took at most this many ticks (0: never); attach sets it
  // to kInlineRunBodyNs.
  uint64_t run_max_body = 0;
  // A parent one of whose untimed tasks recorded something in its body (its
  // start had to be taken as that record's time): its tasks are all timed.
  uint32_t no_run_parent = UINT32_MAX;

  // Encodes r at the chunk's end (writing the chunk first when full).
  [[gnu::always_inline]] void emit(const record &r) {
    if (__builtin_expect(pos > limit, 0))
      write_packed();
    pos = compact::encode(cs, r, pos);
    ++records;
  }
  // Writes the tail out (the records it holds, in their order); `at`: the
  // time of what the thread records next (a task_inline_run ends there), 0
  // if unknown (the clock is read if needed).
  void settle(uint64_t at = 0) {
    if (tail)
      settle_tail(at);
  }
  // Before a task run in place is timed: the tail written out now (at a
  // clock read of its own when it ends a run), so that the task's body
  // does not include writing it.
  void settle_before_timed() {
    if (tail)
      settle_tail(ticks_early());
  }
  // A record of its own: the tail first, then r.
  void put(kind k, uint8_t sub, uint32_t count, uint64_t time, uint64_t task,
           uint64_t arg) {
    settle(time);
    emit(record{k, sub, thread, count, time, task, arg});
    mark = 0;
    done = k == kind::task_end;
    done_id = static_cast<uint32_t>(task);
  }
  // Task id's run (the schedule segment c_from to c_start, then a body of
  // `body` ticks) ended and is held as the tail's task_exec, which the next
  // task's end may pair into a task_exec2; the task's end is the last record.
  [[gnu::always_inline]] void hold_exec(uint32_t id, uint32_t body) {
    tail = tail_exec;
    e_id = id;
    e_body = body;
    e_from = c_from;
    e_start = c_start;
    done = true;
    done_id = id;
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
  void new_id_block();
  void settle_tail(uint64_t at);
  // A record and the dep records after it go in one chunk: room for n
  // records (a chunk of its own, grown, for more than a chunk holds).
  void room(std::size_t n);
  // The dependences of the task or wait whose record was just emitted.
  void emit_deps(uint64_t task_id, uint64_t at, const weft_dep *deps,
                 int ndeps);
  // Writes the chunk (to the sink or the file) and starts a new one. The
  // tail stays.
  void write_packed();
  // For tests: a log of thread `thread` whose chunks of up to `bytes` bytes
  // (at least compact::kMaxRecordBytes + compact::kSlack) go to sink.
  static thread_log *make(uint16_t thread, std::size_t bytes, chunk_sink sink,
                          void *ctx);
  static void destroy(thread_log *l);
};

// The dep records of ndeps dependences: one dep record when ndeps is 1,
// else deps records of up to three each.
inline std::size_t deps_records(int ndeps) {
  return ndeps <= 1 ? static_cast<std::size_t>(ndeps)
                    : static_cast<std::size_t>(ndeps + 2) / 3;
}

// ---- hooks (only when on()) -------------------------------------------------
// The schedule segment of the task a worker is about to run: from the end
// of its last task (if it did nothing else since) to now, which is also the
// task's start. A task this worker created and made ready itself (its
// immediate successor, `mine`) follows nothing another thread did: its
// start may be read early.
inline void scheduled_at(thread_log &l, uint32_t id, uint64_t to) {
  uint64_t from = l.mark && l.mark <= to ? l.mark : to;
  if (l.tail & ~thread_log::tail_exec)
    l.settle_tail(to);
  l.tail |= thread_log::tail_sched;
  l.c_id = id;
  l.c_from = from;
  l.c_start = to;
  l.mark = 0;
  l.done = false;
}
inline void scheduled(thread_log &l, uint32_t id, bool mine = false) {
  scheduled_at(l, id, mine && l.created_here(id) ? ticks_early() : ticks());
}
// Task id begins now: its schedule segment, if it is the last record,
// becomes a task_run (began_run: true); else a task_begin.
inline bool began_run(thread_log &l, uint32_t id) {
  if (!(l.tail & thread_log::tail_sched) || l.c_id != id)
    return false;
  l.tail = static_cast<uint8_t>(
      l.tail ^ (thread_log::tail_sched | thread_log::tail_run));
  return true;
}
inline void begin(thread_log &l, uint32_t id) {
  if (!began_run(l, id))
    l.put(kind::task_begin, 0, 0, ticks(), id, 0);
}
// An overhead segment: its record holds its length in ticks.
inline void overhead(thread_log &l, overhead_kind k, uint32_t id, uint64_t from,
                     uint64_t to) {
  l.put(kind::overhead, static_cast<uint8_t>(k), 0, from, id,
        to > from ? to - from : 0);
}
// Task id's body ended at `at`: with its task_run, a task_exec if that is
// the last record and the body is under 2^32 ticks (paired with the
// task_exec before it into a task_exec2 when this task's schedule segment
// started at that one's end); else a task_end.
void ended_general(thread_log &l, uint32_t id, uint64_t at);
inline void ended(thread_log &l, uint32_t id, uint64_t at) {
  // The common cases inline: the pair's short task_exec2, or the task_exec
  // kept as the tail with nothing before it.
  if (l.c_id == id && at >= l.c_start && l.pos <= l.limit) {
    uint64_t body = at - l.c_start;
    if (l.tail == (thread_log::tail_exec | thread_log::tail_run) &&
        l.c_from == l.e_start + l.e_body) {
      if (uint8_t *q = compact::short_exec2(
              l.cs, l.e_start, l.e_id, id, l.e_start - l.e_from, l.e_body,
              l.c_start - l.c_from, body, l.pos)) {
        l.pos = q;
        ++l.records;
        l.tail = 0;
        l.done = true;
        l.done_id = id;
        return;
      }
    } else if (l.tail == thread_log::tail_run && body <= UINT32_MAX) {
      l.hold_exec(id, static_cast<uint32_t>(body));
      return;
    }
  }
  ended_general(l, id, at);
}
// Task id, which ended at `at`, is retired: if nothing was written since
// its end, the thread's next schedule segment starts there.
inline void retired(thread_log &l, uint32_t id, uint64_t at) {
  if (l.done && l.done_id == id)
    l.mark = at;
}
// Task id's spawn segment, from its creation at `from` to `to`: with its
// creation (still the tail) a task_spawn if the length fits in 32 bits,
// with its single dependence inside (a task_spawn_dep); else an overhead
// record.
void spawned_general(thread_log &l, uint32_t id, uint64_t from, uint64_t to);
inline void spawned(thread_log &l, uint32_t id, uint64_t from, uint64_t to) {
  // The common cases inline: a short task_spawn_dep or task_spawn.
  if (l.tail == thread_log::tail_spawn && l.s_id == id && to >= from &&
      l.pos <= l.limit) {
    uint8_t *q = nullptr;
    if (l.s_ndeps == 1)
      q = compact::short_spawn_dep(
          l.cs,
          static_cast<uint8_t>(l.s_flags |
                               static_cast<uint8_t>(l.s_deps[0].mode) << 4),
          l.s_at, id, l.s_parent, to - from,
          reinterpret_cast<uint64_t>(l.s_deps[0].addr), l.pos);
    else if (l.s_ndeps == 0)
      q = compact::short_spawn(l.cs, kind::task_spawn, l.s_flags, l.s_at, id,
                               l.s_parent, to - from, l.pos);
    if (q) {
      l.pos = q;
      ++l.records;
      l.tail = 0;
      l.done = false;
      return;
    }
  }
  spawned_general(l, id, from, to);
}
thread_log *attach(int worker_id);
// A new task's creation at `at` (held as the tail until its spawn segment
// ends: deps must stay valid until then); returns its fresh id.
inline uint32_t created(thread_log &l, uint32_t parent_id, const weft_dep *deps,
                        int ndeps, uint8_t flags, uint64_t at) {
  l.settle(at); // before the id: a run counts the ids since its timed task
  uint32_t id = l.fresh_id();
  l.tail = thread_log::tail_spawn;
  l.s_id = id;
  l.s_parent = parent_id;
  l.s_ndeps = ndeps;
  l.s_flags = flags;
  l.s_at = at;
  l.s_deps = deps;
  l.mark = 0;
  l.done = false;
  return id;
}
// A task run in place by its creator, created and started at `at`: one
// task_inline record (held as the tail until its end); returns its fresh id.
inline uint32_t inline_begun(thread_log &l, uint32_t parent_id, uint8_t flags,
                             uint64_t at) {
  l.settle(at); // before the id: a run counts the ids since its timed task
  uint32_t id = l.fresh_id();
  l.tail = thread_log::tail_inline;
  l.i_id = id;
  l.i_parent = parent_id;
  l.i_flags = flags;
  l.i_dep = false;
  l.i_addr = 0;
  l.i_at = at;
  l.mark = 0;
  l.done = false;
  return id;
}
// A task run in place by its creator that has the one dependence dep,
// created and started at `at`: one task_inline_dep record (held as the tail
// until its end); returns its fresh id.
inline uint32_t inline_begun_dep(thread_log &l, uint32_t parent_id,
                                 const weft_dep &dep, uint8_t flags,
                                 uint64_t at) {
  uint32_t id = inline_begun(
      l, parent_id,
      static_cast<uint8_t>(flags | static_cast<uint8_t>(dep.mode & 7) << 4),
      at);
  l.i_dep = true;
  l.i_addr = reinterpret_cast<uint64_t>(dep.addr);
  return id;
}
// A task run in place by its creator that has more than one dependence,
// created and started at `at`: the plain records a created task's dependences
// take (task_create with its dep or deps records, then task_begin at the same
// time), so that every reader enters its dependences as a created task's;
// its end is a task_end (inline_ended). Returns its fresh id.
uint32_t inline_begun_deps(thread_log &l, uint32_t parent_id,
                           const weft_dep *deps, int ndeps, uint8_t flags,
                           uint64_t at);
// The task run in place ended at `at`: inside its task_inline or
// task_inline_dep if that is the last record and the body is under 2^32
// ticks; else a task_end.
void inline_ended_general(thread_log &l, uint32_t id, uint64_t at);
inline void inline_ended(thread_log &l, uint32_t id, uint64_t at) {
  if (l.tail == thread_log::tail_inline && l.i_id == id && at >= l.i_at &&
      at - l.i_at < l.run_max_body) {
    // Short: held, so that untimed tasks like it may follow (a
    // task_inline_run).
    l.tail = thread_log::tail_iend;
    l.i_end = at;
    const uint32_t room = l.id_end - l.next_id;
    l.r_end = l.next_id + (l.i_parent == l.no_run_parent ? 0
                           : room < kInlineRunMax        ? room
                                                         : kInlineRunMax);
    return;
  }
  // The common case inline: a short task_inline.
  if (l.tail == thread_log::tail_inline && l.i_id == id && at >= l.i_at &&
      l.pos <= l.limit) {
    const uint8_t sub = static_cast<uint8_t>(l.i_flags | kInlineEnded);
    if (uint8_t *q =
            l.i_dep
                ? compact::short_spawn_dep(l.cs, sub, l.i_at, id, l.i_parent,
                                           at - l.i_at, l.i_addr, l.pos,
                                           kind::task_inline_dep)
                : compact::short_spawn(l.cs, kind::task_inline, sub, l.i_at, id,
                                       l.i_parent, at - l.i_at, l.pos)) {
      l.pos = q;
      ++l.records;
      l.tail = 0;
      l.done = false;
      return;
    }
  }
  inline_ended_general(l, id, at);
}
// What an untimed task must share with the timed one before it: its
// parent, its flags (the trace's, or the caller's from which they follow)
// and its dependence's mode (0: none); the address is compared apart.
inline uint64_t run_key(uint32_t parent_id, uint32_t flags, uint32_t mode) {
  return parent_id | uint64_t(flags & 0xffff) << 32 | uint64_t(mode) << 48;
}
// A task run in place by its creator (its run_key and its dependence's
// address or 0) that may be the next untimed task of the run after the
// tail's timed one: its id, else 0. (Nothing takes an id without settling
// the tail: the next id is the run's next.) Expected to continue (up to 63 of
// 64 fine tasks do): the untimed task falls through, the timed one jumps.
[[gnu::always_inline]] inline bool
inline_continued(thread_log &l, uint64_t key, uint64_t addr, uint32_t &id) {
  if (__builtin_expect(l.tail == thread_log::tail_iend &&
                           l.next_id != l.r_end && l.r_key == key &&
                           l.i_addr == addr,
                       1)) {
    l.tail = thread_log::tail_iend | thread_log::tail_more;
    id = l.next_id++;
    return true;
  }
  return false;
}
// A task run in place by its creator, without dependences, starts now: an
// untimed task of a run, else a task_inline (inline_begun) started now,
// read early. Returns its id.
inline uint32_t inline_begin_now(thread_log &l, uint32_t parent_id,
                                 uint8_t flags) {
  const uint64_t key = run_key(parent_id, flags, 0);
  uint32_t id;
  if (inline_continued(l, key, 0, id))
    return id;
  l.settle_before_timed();
  id = inline_begun(l, parent_id, flags, ticks_early());
  l.r_key = key;
  return id;
}
// The same with the one dependence dep: else a task_inline_dep
// (inline_begun_dep) started now, read after a fence (it follows its
// predecessor's end, perhaps on another thread; an untimed task's
// predecessor is the timed one's or the one before it in the run).
inline uint32_t inline_begin_dep_now(thread_log &l, uint32_t parent_id,
                                     const weft_dep &dep, uint8_t flags) {
  const uint64_t key = run_key(parent_id, flags, dep.mode);
  uint32_t id;
  if (inline_continued(l, key, reinterpret_cast<uint64_t>(dep.addr), id))
    return id;
  l.settle_before_timed();
  id = inline_begun_dep(l, parent_id, dep, flags, ticks());
  l.r_key = key;
  return id;
}
// The task run in place, id, ends now: an untimed one of a run without a
// clock read, else inline_ended at a time read early.
// (While an untimed task runs, anything recorded settles the tail: a task
// that ends with tail_more still set is that task.)
inline void inline_end_now(thread_log &l, uint32_t id) {
  if (l.tail == (thread_log::tail_iend | thread_log::tail_more)) {
    l.tail = thread_log::tail_iend;
    return;
  }
  inline_ended(l, id, ticks_early());
}
// A new implicit task (parent: the encountering task's id, 0 for a thread's
// first team): task_create and task_begin.
void implicit_begin(thread_log &l, task *t, uint32_t parent_id);
void wait_begin_at(thread_log &l, wait_kind k, uint32_t task_id,
                   const weft_dep *deps, int ndeps, uint64_t at);
inline void wait_begin(thread_log &l, wait_kind k, uint32_t task_id,
                       const weft_dep *deps, int ndeps) {
  wait_begin_at(l, k, task_id, deps, ndeps, ticks());
}
// Counter samples, at most one set per worker every sample period.
void sample(thread_log &l, worker &w, uint64_t at);
inline void maybe_sample(thread_log &l, worker &w, uint64_t at) {
  if (__builtin_expect(at >= l.next_sample, 0))
    sample(l, w, at);
}

} // namespace weft::trace
