// The trace file (docs/trace-format.md): a header, then chunks of records,
// each chunk written by one thread with its records in the order it took
// them: since version 9 as compact records (compact.hpp: a few varints each),
// before as fixed-size little-endian `record`s. Times in the file are the
// recorder's raw ticks; the header holds the rate that converts them. A few
// record kinds stand for several events (a task's creation and its spawn
// segment, say): the readers (read/trace_reader.hpp) convert the ticks and
// expand those kinds, so that what tools see is one `record` per event, times
// in ns. Shared by the recording side (record/, in libweft) and the reading
// side (read/: `weft trace`, `weft sim`).
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace weft::trace {

// Errors of writing or reading a trace file: the message names the file
// (and, when reading, the byte offset).
struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "trace: <what> <path>: <errno's text>".
inline std::string sys_error(const char *what, const std::string &path) {
  return std::string("trace: ") + what + " " + path + ": " +
         std::strerror(errno);
}

inline constexpr char kMagic[8] = {'W', 'E', 'F', 'T', 'T', 'R', 'C', '1'};
// 11: the merged kind 29 (a run of tasks run in place like the task_inline
// or task_inline_dep before it, untimed); the readers read versions 6-10
// too. 10: the merged kind 28 (a task run in place with its one dependence
// inside); the readers read versions 6-9 too. 9: chunks of compact records
// (compact.hpp; the record kinds as in 8); the readers read versions 6-8 too.
// 8: the merged kinds 26 (a task run in place: its creation, start and end in
// one record) and 27 (two task_exec in one); the readers read versions 6 and 7
// too. 7: the merged kinds 23-25 (a task's single dependence inside its
// task_spawn, three dependences per record, a task's schedule segment, start
// and end in one record) and no finish segment timed apart; the readers read
// version 6 too. 6: the arguments of weft_wait (kind 22). 5: the placement
// decisions (kind 21). 4: the phase marks (kind 20). 3: the region kinds 15-19
// (a region's parent, a region task's spawn and arguments, the core task that
// runs it). 2: times in ticks with the rate in the header, overhead durations
// in ticks, the merged kinds 12-14. (Version 1 had times in ns and no rate; it
// gained kind 11, rtask_arg, without a new number.)
inline constexpr uint32_t kVersion = 11;
// The first version whose chunks hold compact records.
inline constexpr uint32_t kCompactVersion = 9;
// The oldest version the readers read (its kinds are a subset of this one's).
inline constexpr uint32_t kOldestVersion = 6;
inline constexpr uint32_t kChunkMagic = 0x4b4e4843; // "CHNK"

struct file_header {
  char magic[8];          // kMagic
  uint32_t version;       // kVersion
  uint32_t record_size;   // sizeof(record), as the readers expand them
  uint64_t start_unix_ns; // wall-clock time of time 0 (CLOCK_REALTIME)
  uint32_t threads;       // workers the runtime started with
  uint32_t reserved;
  char engine[16];  // dependency engine, NUL-padded ("sw", "nexus"...)
  char program[64]; // the traced program's name (argv[0]'s base name)
  // Times: ns since the trace started = (ticks - tick0) * ns_per_tick,
  // 0 for ticks <= tick0 (IEEE-754 double; identity: tick0 0, rate 1).
  uint64_t tick0;
  double ns_per_tick;
};
static_assert(sizeof(file_header) == 128);

struct chunk_header {
  uint32_t magic;  // kChunkMagic
  uint16_t thread; // worker id that recorded every record of the chunk
  uint16_t reserved;
  uint32_t records; // records that follow
  uint32_t bytes;   // since version 9: the compact payload's length (0 before)
};
static_assert(sizeof(chunk_header) == 16);

enum class kind : uint8_t {
  task_create = 1,  // task: new id; arg: parent id (0 = none); sub: task_flags;
                    // count: dependences, as `count` dep records that follow
  dep = 2,          // task: whose; arg: address; sub: dep_mode
  task_begin = 3,   // task starts (or resumes nothing: one begin per task)
  task_end = 4,     // task's body returned
  wait_begin = 5,   // task: the waiting task; sub: wait_kind; count: deps
                    // (taskwait on) as dep records that follow
  wait_end = 6,     // task: the waiting task; sub: wait_kind
  overhead = 7,     // time: start; arg: duration (ns); sub: overhead_kind;
                    // task: the task it was for (0 = none)
  counter = 8,      // sub: counter_id; arg: value
  region_begin = 9, // task: the encountering task; count: team size
  region_end = 10,  // task: the encountering task
  rtask_arg = 11,   // task: the core task running a region task (weft_rspawn);
                    // sub: the argument's WEFT_ARG_* bits (in, out, region);
                    // count: the scheduler owning it (pre-order id, top 0);
                    // arg: the region id, or the object's address
  // Merged kinds: only in files, never in what the readers return.
  task_spawn = 12, // task_create (sub, count, time, task as it) and the spawn
                   // segment from its time: arg = parent id (low 32 bits) |
                   // the segment's length in ticks << 32
  task_run = 13,   // the schedule segment, then task_begin at `time`:
                   // arg = the segment's start (ticks)
  task_done = 14,  // task_end at `time`, then the finish segment from it:
                   // arg = the segment's end (ticks)
  // Region programs (weft_ralloc, weft_rspawn; docs/regions.md):
  region_new = 15,  // task: the task that called weft_ralloc; arg: the new
                    // region's id; count: its parent region's id
  rtask_spawn = 16, // task: the spawning task (weft_rspawn's caller); arg:
                    // the region task's spawn number (unique in the trace);
                    // count: its analysed arguments, as `count` rspawn_arg
                    // records that follow
  rspawn_arg = 17,  // task: as its rtask_spawn; sub: the WEFT_ARG_* bits;
                    // arg: the region id or object address; count: the
                    // object's region, or the region's parent
  rtask_run = 18,   // task: the core task that runs the region task whose
                    // spawn number is arg (before its rtask_arg records)
  rtask_done = 19,  // task, arg: as rtask_run; the region task's body and
                    // its plain children ended, its arguments go next
  phase = 20,       // task: the task that called weft_trace_phase_begin/end;
                    // sub: phase_edge; the phase's name, NUL-padded: its
                    // first 8 bytes in arg, the next 4 in count
  rplace = 21,      // task: the task whose worker placed a ready region task
                    // (under a scheduler tree); count: the chosen worker;
                    // arg: rplace_arg(spawn number, handling scheduler,
                    // chosen leaf)
  rwait = 22,       // task: the task calling weft_wait, before its
                    // wait_begin; count: the waited arguments, as `count`
                    // rspawn_arg records that follow
  // Version 7's merged kinds (only in files):
  task_spawn_dep = 23, // a task_spawn with its one dependence inside: sub =
                       // flags | dep_mode << 4; task = id | the address's
                       // bits 0-31 << 32; count: the address's bits 32-63;
                       // arg as task_spawn's; no dep record follows
  deps = 24,           // up to three dep records of the task_create,
                       // task_spawn or wait_begin before it (its time and
                       // task): sub: how many (1-3); count: their modes,
                       // 8 bits each from bit 0; time, task, arg: their
                       // addresses, in this order
  task_exec = 25,      // task_run (time, task, arg as it), then task_end at
                       // time + count (the body's length in ticks)
  // Version 8's merged kinds (only in files):
  task_inline = 26, // a task run in place by its creator: task_create (no
                    // dependences; sub & 0x0f: flags, arg: parent id) and
                    // task_begin at `time`; with sub's bit
                    // kInlineEnded, also task_end at time + count (the
                    // body's length in ticks), else a task_end follows
  task_exec2 = 27,  // two task_exec of one thread, the second's schedule
                    // segment starting at the first's end: time, count: the
                    // first's start and body length; task: the first id |
                    // the second << 32; arg: exec2_arg(the first's
                    // schedule length, the second's, the second's body)
  // Version 10's merged kind (only in files):
  task_inline_dep = 28, // a task run in place by its creator with one
                        // dependence: task_create (sub & 0x0f: flags, one
                        // dep record of mode (sub >> 4) & 7 at the address
                        // count << 32 | task >> 32), task_begin at `time`;
                        // task & 0xffffffff: its id; arg: parent id (low 32
                        // bits) | the body's length in ticks << 32; with
                        // sub's bit kInlineEnded, also task_end at time +
                        // that length, else a task_end follows (and the
                        // length is 0)
  // Version 11's merged kind (only in files):
  task_inline_run = 29, // count > 0 more tasks run in place right after the
                        // task_inline or task_inline_dep before it (which
                        // has its end inside), each like it (parent, flags,
                        // dependence), ids task, task + 1, ...; untimed:
                        // they and their creator's work between them fill
                        // time (that one's end) .. time + arg, split by
                        // inline_run_times
};
// A task_inline_run's tasks' times, in ticks: n tasks whose bodies and the
// n + 1 gaps of their creator's work around them fill `length` ticks from
// `from`; each body is taken as long as the timed task's before them
// (`body`, at most length / n), the gaps share the rest. Task j (from 0)
// begins at inline_run_begin(..., j) and ends `run_body` later.
inline uint64_t inline_run_body(uint64_t body, uint64_t length, uint64_t n) {
  return body < length / n ? body : length / n;
}
inline uint64_t inline_run_begin(uint64_t from, uint64_t body, uint64_t length,
                                 uint64_t n, uint64_t j) {
  const uint64_t b = inline_run_body(body, length, n);
  const uint64_t gap = (length - n * b) / (n + 1);
  return from + (j + 1) * gap + j * b;
}
// The most tasks a task_inline_run holds: the recorder times the next one
// (a task_inline or task_inline_dep that a run may follow again).
inline constexpr uint32_t kInlineRunMax = 63;
// task_inline's and task_inline_dep's sub bit: its end is inside (the
// body's length in count, or arg's high half).
inline constexpr uint8_t kInlineEnded = 0x80;

// A task_exec2's arg: three lengths in ticks of under 2^21 each (bits
// 0-20, 21-41, 42-62; bit 63 is 0).
inline constexpr uint64_t kExec2Max = (uint64_t(1) << 21) - 1;
inline uint64_t exec2_arg(uint64_t sched1, uint64_t sched2, uint64_t body2) {
  return sched1 | sched2 << 21 | body2 << 42;
}
inline uint64_t exec2_field(uint64_t arg, int i) {
  return (arg >> (21 * i)) & kExec2Max;
}
// The last record kind a reader knows, by the file's version.
inline constexpr kind kLastKind = kind::task_inline_run;
inline constexpr kind last_kind(uint32_t version) {
  return version >= 11   ? kind::task_inline_run
         : version >= 10 ? kind::task_inline_dep
         : version >= 8  ? kind::task_exec2
         : version >= 7  ? kind::task_exec
                         : kind::rwait;
}

// An rplace record's arg: the region task's spawn number (bits 0-39), the
// scheduler that handled the placement (the lowest common ancestor of its
// arguments' owners; bits 40-51) and the leaf it chose (bits 52-63),
// schedulers by pre-order id (top 0).
inline uint64_t rplace_arg(uint64_t seq, uint32_t from, uint32_t leaf) {
  return (seq & ((uint64_t(1) << 40) - 1)) | (uint64_t(from & 0xfff) << 40) |
         (uint64_t(leaf & 0xfff) << 52);
}
inline uint64_t rplace_seq(uint64_t arg) {
  return arg & ((uint64_t(1) << 40) - 1);
}
inline uint32_t rplace_from(uint64_t arg) { return (arg >> 40) & 0xfff; }
inline uint32_t rplace_leaf(uint64_t arg) { return uint32_t(arg >> 52); }

// A phase mark's sub.
enum class phase_edge : uint8_t { begin = 1, end = 2 };

// A phase's name: 1 to kPhaseNameMax bytes, letters, digits, '_', '-', '.'.
inline constexpr std::size_t kPhaseNameMax = 12;
inline bool valid_phase_name(const char *n) {
  if (!n)
    return false;
  std::size_t len = 0;
  for (; n[len]; ++len) {
    char c = n[len];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!ok || len == kPhaseNameMax)
      return false;
  }
  return len > 0;
}
// The name as a phase record carries it (valid_phase_name(n) holds).
inline void pack_phase_name(const char *n, uint64_t &arg, uint32_t &count) {
  char b[kPhaseNameMax] = {};
  std::memcpy(b, n, std::strlen(n));
  std::memcpy(&arg, b, 8);
  std::memcpy(&count, b + 8, 4);
}
inline std::string unpack_phase_name(uint64_t arg, uint32_t count) {
  char b[kPhaseNameMax + 1] = {};
  std::memcpy(b, &arg, 8);
  std::memcpy(b + 8, &count, 4);
  return std::string(b);
}

enum task_flags : uint8_t {
  flag_implicit = 1u << 0,   // a parallel region's implicit task
  flag_undeferred = 1u << 1, // if(0) / included: ran in its creator
  flag_final = 1u << 2,
  flag_detach = 1u << 3,
};

// The set flags as a comma-separated list ("implicit,final"), for exporters.
inline std::string flag_names(uint8_t f) {
  std::string s;
  auto add = [&](uint8_t bit, const char *n) {
    if (f & bit)
      s += s.empty() ? n : std::string(",") + n;
  };
  add(flag_implicit, "implicit");
  add(flag_undeferred, "undeferred");
  add(flag_final, "final");
  add(flag_detach, "detach");
  return s;
}

// The access bits of rtask_arg and rspawn_arg (weft/regions.h's WEFT_ARG_*).
enum region_arg_bits : uint8_t {
  region_arg_in = 0x01,
  region_arg_out = 0x02,
  region_arg_region = 0x10,
};

enum class dep_mode : uint8_t {
  in = 1,
  out = 2,
  inout = 3,
  inoutset = 4,
  mutexinoutset = 5,
};

enum class wait_kind : uint8_t {
  taskwait = 1,    // all children
  taskwait_on = 2, // only the children the dependences name
  taskgroup = 3,   // the end of a taskgroup: its members and descendants
  barrier = 4,     // a team barrier (implicit tasks)
};

enum class overhead_kind : uint8_t {
  spawn = 1,    // creating a task: descriptor, dependences, engine submit
  schedule = 2, // finding the next task: queues, engine fetch, stealing
  finish = 3,   // completing a task: engine retire, releasing successors
};

enum class counter_id : uint8_t {
  ready = 1,     // tasks ready and not started, seen by the recording worker
  in_flight = 2, // tasks created and not finished
  engine = 3,    // entries the engine holds (its table occupancy)
};

// One record. `thread` repeats the chunk's so that a merged stream is
// self-describing. In a file: time in ticks, an overhead's arg its length in
// ticks, merged kinds; as the readers return it: one event, times in ns.
struct record {
  kind type;
  uint8_t sub;
  uint16_t thread;
  uint32_t count;
  uint64_t time; // ns since the trace started (ticks in a file)
  uint64_t task; // task id: unique in the trace, never reused, 0 = none
  uint64_t arg;
};
static_assert(sizeof(record) == 32);

} // namespace weft::trace
