#include "trace/record/recorder.hpp"

#include "base/env.hpp"
#include "base/error.hpp"
#include "base/futex.hpp"
#include "core/task.hpp"
#include "core/trace_view.hpp"
#include "trace/compact.hpp"
#include "trace/record/trace_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

extern "C" char *program_invocation_short_name;

namespace weft::trace {

std::atomic<bool> g_on{false};
uint64_t g_in_place_ticks = 0;
uint64_t g_in_place_dep_ticks = 0;

namespace {

// A task run in place is followed by untimed ones like it (a
// task_inline_run) only when its body took under this long: a longer body
// makes its two clock reads cheap beside it, and keeps its own times.
constexpr uint64_t kInlineRunBodyNs = 1000;
uint64_t g_run_max_body = 0; // kInlineRunBodyNs in ticks

// A worker's compact chunk is written per MiB.
constexpr std::size_t kPackedBytes = std::size_t(1) << 20;
constexpr std::size_t kRecordRoom = compact::kMaxRecordBytes + compact::kSlack;
constexpr uint32_t kIdBlock = 1024;
constexpr uint64_t kSamplePeriodNs = 100000;
// The tick rate is measured once, over this long at the start: one rate
// for every record keeps the order of events across threads.
constexpr uint64_t kCalibrationNs = 2000000;

uint64_t mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

struct recorder_state {
  std::string path;
  std::unique_ptr<writer> out;
  uint64_t tick0 = 0, mono0 = 0;
  uint64_t sample_period = 0; // ticks
  double ns_per_tick = 1;
  std::atomic<uint64_t> next_id{1};
  std::mutex lock;
  std::vector<thread_log *> logs; // by worker id
};
recorder_state *g_rec = nullptr;
bool g_forked = false; // in a child of fork()
std::once_flag g_atexit_once;

[[noreturn]] void write_failed(const error &e) {
  fatal("WEFT_TRACE: %s", e.what());
}

// At exit, under the OpenMP front end (whose runtime is never torn down):
// once the last region's members have left it, the implicit tasks still
// running (the initial thread's, and those of threads of the program's own)
// end now.
void stop_at_exit() {
  if (!on())
    return;
  std::vector<trace_view::open_root> open = trace_view::open_roots_at_exit();
  uint64_t at = ticks();
  for (const trace_view::open_root &r : open)
    r.log->put(kind::task_end, 0, 0, at, r.trace_id, 0);
  stop(false);
}

// The recorder's cost for one task run in place, through the hooks
// trace_point::inline_begin_traced and inline_end take (a timed
// task_inline, then untimed tasks of a task_inline_run); with deps, one with
// a dependence (a timed task_inline_dep with a fenced start, then a run).
// The least of a few rounds of kInPlaceProbes into a scratch log.
uint64_t measure_in_place_ticks(bool deps) {
  constexpr int kInPlaceProbes = 256;
  thread_log *l = thread_log::make(0, std::size_t(1) << 16, nullptr, nullptr);
  l->next_id = l->id_first = 1;
  l->id_end = UINT32_MAX;
  l->run_max_body = g_run_max_body;
  uint64_t best = UINT64_MAX;
  for (int round = 0; round < 5; ++round) {
    l->pos = l->buf;
    l->records = 0;
    l->cs = compact::state{};
    l->tail = 0;
    uint64_t t0 = ticks();
    for (int i = 0; i < kInPlaceProbes; ++i) {
      uint32_t id =
          deps ? inline_begin_dep_now(*l, 1, weft_dep{&best, WEFT_INOUT}, 0)
               : inline_begin_now(*l, 1, 0);
      inline_end_now(*l, id);
    }
    uint64_t t1 = ticks();
    if (t1 > t0 && t1 - t0 < best)
      best = t1 - t0;
  }
  thread_log::destroy(l);
  return best == UINT64_MAX ? 0 : best / kInPlaceProbes;
}

} // namespace

void forget_in_child() {
  g_on.store(false, std::memory_order_relaxed);
  g_rec = nullptr;
  g_forked = true;
}

int start_from_env(const char *engine, int threads) {
  const char *path = env::get("WEFT_TRACE");
  if (!path || g_forked)
    return WEFT_OK;
  auto rec = std::make_unique<recorder_state>();
  rec->path = path;
  timespec real;
  clock_gettime(CLOCK_REALTIME, &real);
  rec->mono0 = mono_ns();
  rec->tick0 = ticks();
  uint64_t m;
  while ((m = mono_ns()) - rec->mono0 < kCalibrationNs)
    cpu_relax();
  uint64_t t = ticks();
  rec->ns_per_tick = double(m - rec->mono0) / double(t - rec->tick0);
  rec->sample_period =
      static_cast<uint64_t>(double(kSamplePeriodNs) / rec->ns_per_tick) + 1;
  g_run_max_body =
      static_cast<uint64_t>(double(kInlineRunBodyNs) / rec->ns_per_tick) + 1;
  g_in_place_ticks = measure_in_place_ticks(false);
  g_in_place_dep_ticks = measure_in_place_ticks(true);
  try {
    rec->out = std::make_unique<writer>(
        rec->path, make_header(engine, program_invocation_short_name,
                               static_cast<uint32_t>(threads),
                               uint64_t(real.tv_sec) * 1000000000u +
                                   uint64_t(real.tv_nsec),
                               rec->tick0, rec->ns_per_tick));
  } catch (const error &e) {
    return set_error(WEFT_EINVAL, "WEFT_TRACE=%s: cannot record a trace (%s)",
                     path, e.what());
  }
  g_rec = rec.release();
  g_on.store(true, std::memory_order_release);
  // The OpenMP front end never tears its runtime down: write at exit.
  std::call_once(g_atexit_once, [] { std::atexit(stop_at_exit); });
  return WEFT_OK;
}

void stop(bool free_buffers) {
  recorder_state *rec = g_rec;
  if (!rec)
    return;
  g_on.store(false, std::memory_order_release);
  for (thread_log *l : rec->logs)
    if (l) {
      l->settle();
      l->write_packed();
    }
  try {
    rec->out->close();
  } catch (const error &e) {
    write_failed(e);
  }
  g_rec = nullptr;
  if (!free_buffers)
    return; // idle workers still point at their logs
  for (thread_log *l : rec->logs)
    if (l)
      thread_log::destroy(l);
  delete rec;
}

thread_log *attach(int worker_id) {
  recorder_state &rec = *g_rec;
  thread_log *l = thread_log::make(static_cast<uint16_t>(worker_id),
                                   kPackedBytes, nullptr, nullptr);
  l->run_max_body = g_run_max_body;
  std::lock_guard<std::mutex> lk(rec.lock);
  if (rec.logs.size() <= static_cast<std::size_t>(worker_id))
    rec.logs.resize(worker_id + 1, nullptr);
  rec.logs[worker_id] = l;
  return l;
}

void thread_log::new_id_block() {
  uint64_t first = g_rec->next_id.fetch_add(kIdBlock);
  if (first + kIdBlock > UINT32_MAX)
    fatal("WEFT_TRACE: more than %u tasks in one trace (task ids are 32-bit)",
          UINT32_MAX - kIdBlock);
  next_id = id_first = static_cast<uint32_t>(first);
  id_end = static_cast<uint32_t>(first + kIdBlock);
}

thread_log *thread_log::make(uint16_t thread, std::size_t bytes,
                             chunk_sink sink, void *ctx) {
  if (bytes < kRecordRoom)
    fatal("trace::thread_log::make: a chunk of %zu bytes holds no record "
          "(at least %zu)",
          bytes, kRecordRoom);
  auto *l = new thread_log;
  l->thread = thread;
  l->buf = new uint8_t[bytes];
  l->capacity = bytes;
  l->pos = l->buf;
  l->limit = l->buf + (bytes - kRecordRoom);
  l->sink = sink;
  l->sink_ctx = ctx;
  return l;
}

void thread_log::destroy(thread_log *l) {
  delete[] l->buf;
  delete l;
}

void thread_log::write_packed() {
  if (records != 0) {
    // Encoded as recorded, in ticks: the readers convert (trace_format.hpp).
    std::size_t bytes = static_cast<std::size_t>(pos - buf);
    if (sink) {
      sink(sink_ctx, thread, records, buf, bytes);
    } else {
      try {
        g_rec->out->write_encoded(thread, records, buf, bytes);
      } catch (const error &e) {
        write_failed(e);
      }
    }
  }
  pos = buf;
  records = 0;
  cs = compact::state{};
}

void thread_log::room(std::size_t n) {
  std::size_t need = n * compact::kMaxRecordBytes + compact::kSlack;
  if (static_cast<std::size_t>(buf + capacity - pos) >= need)
    return;
  write_packed();
  if (capacity < need) {
    delete[] buf;
    buf = new uint8_t[need];
    capacity = need;
    pos = buf;
    limit = buf + (need - kRecordRoom);
  }
}

void thread_log::emit_deps(uint64_t task_id, uint64_t at, const weft_dep *deps,
                           int ndeps) {
  if (ndeps == 1) {
    emit(record{kind::dep, static_cast<uint8_t>(deps[0].mode), thread, 0, at,
                task_id, reinterpret_cast<uint64_t>(deps[0].addr)});
    return;
  }
  for (int i = 0; i < ndeps; i += 3) {
    int k = ndeps - i < 3 ? ndeps - i : 3;
    uint64_t a[3] = {0, 0, 0};
    uint32_t modes = 0;
    for (int j = 0; j < k; ++j) {
      a[j] = reinterpret_cast<uint64_t>(deps[i + j].addr);
      modes |= uint32_t(static_cast<uint8_t>(deps[i + j].mode)) << (8 * j);
    }
    emit(record{kind::deps, static_cast<uint8_t>(k), thread, modes, a[0], a[1],
                a[2]});
  }
}

// The tail's task_inline or task_inline_dep: its end inside (ended: the
// body's length `body`) or not.
static record inline_record(const thread_log &l, uint64_t body, bool ended) {
  const uint8_t sub =
      static_cast<uint8_t>(l.i_flags | (ended ? kInlineEnded : 0));
  if (l.i_dep)
    return record{kind::task_inline_dep,
                  sub,
                  l.thread,
                  static_cast<uint32_t>(l.i_addr >> 32),
                  l.i_at,
                  l.i_id | l.i_addr << 32,
                  l.i_parent | body << 32};
  return record{kind::task_inline,
                sub,
                l.thread,
                static_cast<uint32_t>(body),
                l.i_at,
                l.i_id,
                l.i_parent};
}

void thread_log::settle_tail(uint64_t at) {
  uint8_t t = tail;
  tail = 0;
  if (t & tail_iend) {
    // The timed task, then the untimed ones up to `at` (the thread's next
    // record), the last of them begun there when it still runs (its body
    // recorded something: its end will be a task_end).
    if (at == 0)
      at = ticks_early();
    if (at < i_end)
      at = i_end;
    room(3);
    emit(inline_record(*this, i_end - i_at, true));
    const uint32_t open = (t & tail_more) ? 1 : 0;
    // No id was taken since but the run's (settle comes first).
    const uint32_t r_count = next_id - 1 - i_id;
    if (r_count > open)
      emit(record{kind::task_inline_run, 0, thread, r_count - open, i_end,
                  uint64_t(i_id) + 1, at - i_end});
    if (open) {
      no_run_parent = i_parent;
      i_id += r_count;
      i_at = at;
      emit(inline_record(*this, 0, false));
    }
    return;
  }
  if (t & tail_exec)
    emit(record{kind::task_exec, static_cast<uint8_t>(overhead_kind::schedule),
                thread, e_body, e_start, e_id, e_from});
  if (t & tail_sched)
    emit(record{kind::overhead, static_cast<uint8_t>(overhead_kind::schedule),
                thread, 0, c_from, c_id, c_start - c_from});
  if (t & tail_run)
    emit(record{kind::task_run, static_cast<uint8_t>(overhead_kind::schedule),
                thread, 0, c_start, c_id, c_from});
  if (t & tail_spawn) {
    room(1 + deps_records(s_ndeps));
    emit(record{kind::task_create, s_flags, thread,
                static_cast<uint32_t>(s_ndeps), s_at, s_id, s_parent});
    emit_deps(s_id, s_at, s_deps, s_ndeps);
  }
  if (t & tail_inline)
    emit(inline_record(*this, 0, false));
}

void ended_general(thread_log &l, uint32_t id, uint64_t at) {
  if (!(l.tail & thread_log::tail_run) || l.c_id != id || at < l.c_start ||
      at - l.c_start > UINT32_MAX) {
    l.put(kind::task_end, 0, 0, at, id, 0);
    return;
  }
  uint64_t body = at - l.c_start;
  if ((l.tail & thread_log::tail_exec) && l.c_from == l.e_start + l.e_body &&
      l.e_start - l.e_from <= kExec2Max && l.c_start - l.c_from <= kExec2Max &&
      body <= kExec2Max) {
    l.emit(record{kind::task_exec2,
                  static_cast<uint8_t>(overhead_kind::schedule), l.thread,
                  l.e_body, l.e_start, l.e_id | uint64_t(id) << 32,
                  exec2_arg(l.e_start - l.e_from, l.c_start - l.c_from, body)});
    l.tail = 0;
    l.done = true;
    l.done_id = id;
    return;
  }
  if (l.tail & thread_log::tail_exec)
    l.emit(record{kind::task_exec,
                  static_cast<uint8_t>(overhead_kind::schedule), l.thread,
                  l.e_body, l.e_start, l.e_id, l.e_from});
  l.hold_exec(id, static_cast<uint32_t>(body));
}
void spawned_general(thread_log &l, uint32_t id, uint64_t from, uint64_t to) {
  uint64_t d = to > from ? to - from : 0;
  if (l.tail == thread_log::tail_spawn && l.s_id == id && d <= UINT32_MAX) {
    l.tail = 0;
    if (l.s_ndeps == 1) {
      uint64_t addr = reinterpret_cast<uint64_t>(l.s_deps[0].addr);
      l.emit(
          record{kind::task_spawn_dep,
                 static_cast<uint8_t>(
                     l.s_flags | static_cast<uint8_t>(l.s_deps[0].mode) << 4),
                 l.thread, static_cast<uint32_t>(addr >> 32), l.s_at,
                 id | addr << 32, l.s_parent | d << 32});
    } else {
      if (l.s_ndeps > 1)
        l.room(1 + deps_records(l.s_ndeps));
      l.emit(record{kind::task_spawn, l.s_flags, l.thread,
                    static_cast<uint32_t>(l.s_ndeps), l.s_at, id,
                    l.s_parent | d << 32});
      l.emit_deps(id, l.s_at, l.s_deps, l.s_ndeps);
    }
    l.done = false;
  } else {
    overhead(l, overhead_kind::spawn, id, from, to);
  }
}
void inline_ended_general(thread_log &l, uint32_t id, uint64_t at) {
  if (l.tail == thread_log::tail_inline && l.i_id == id && at >= l.i_at &&
      at - l.i_at <= UINT32_MAX) {
    l.tail = 0;
    l.emit(inline_record(l, at - l.i_at, true));
    l.done = false;
  } else {
    l.put(kind::task_end, 0, 0, at, id, 0);
  }
}

uint32_t inline_begun_deps(thread_log &l, uint32_t parent_id,
                           const weft_dep *deps, int ndeps, uint8_t flags,
                           uint64_t at) {
  l.settle(at); // before the id: a run counts the ids since its timed task
  uint32_t id = l.fresh_id();
  l.room(2 + deps_records(ndeps));
  l.emit(record{kind::task_create, flags, l.thread,
                static_cast<uint32_t>(ndeps), at, id, parent_id});
  l.emit_deps(id, at, deps, ndeps);
  l.put(kind::task_begin, 0, 0, at, id, 0);
  return id;
}

void implicit_begin(thread_log &l, task *t, uint32_t parent_id) {
  uint64_t at = ticks();
  l.settle(at); // before the id: a run counts the ids since its timed task
  uint32_t id = l.fresh_id();
  t->trace_id = id;
  l.put(kind::task_create, flag_implicit, 0, at, id, parent_id);
  l.put(kind::task_begin, 0, 0, at, id, 0);
}

void wait_begin_at(thread_log &l, wait_kind k, uint32_t task_id,
                   const weft_dep *deps, int ndeps, uint64_t at) {
  l.settle(at);
  l.room(1 + deps_records(ndeps));
  l.put(kind::wait_begin, static_cast<uint8_t>(k), uint32_t(ndeps), at, task_id,
        0);
  l.emit_deps(task_id, at, deps, ndeps);
}

void sample(thread_log &l, worker &w, uint64_t at) {
  l.next_sample = at + g_rec->sample_period;
  uint64_t ready = trace_view::ready_hint(w);
  uint64_t in_flight = trace_view::in_flight(w);
  l.put(kind::counter, static_cast<uint8_t>(counter_id::ready), 0, at, 0,
        ready);
  l.put(kind::counter, static_cast<uint8_t>(counter_id::in_flight), 0, at, 0,
        in_flight);
}

} // namespace weft::trace
