// The Verilator-compiled Nexus++ Task Maestro (hw/nexus/nexus_task_maestro.sv)
// behind a word-level port: the host queues tasks and finishes, run() clocks
// the unit until it has taken them all and has nothing left to do, and hands
// back the Ready FIFO words in order. A port owns one simulated unit and its
// clock; it is not thread-safe (one owning thread).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace weft::nexus_rtl {

// The sizes a verilated unit was built with (hw/sim/CMakeLists.txt).
struct sizes {
  uint32_t pool, params, max_params, sets, ways, kol, dummy_kol;
};
// Table I of the paper (the engine's unit), and a small unit whose tables
// fill up after a few tasks (the equivalence tests).
inline constexpr sizes kTableI{1024, 8, 16, 256, 8, 8, 1024};
inline constexpr sizes kSmall{64, 8, 16, 16, 4, 2, 16};

struct param {
  uint64_t key; // {domain tag[15:0], address[47:0]}
  uint8_t acc;  // 1 in, 2 out, 3 inoutset (nexus_access)
};

struct ready_word {
  uint32_t id;
  bool waiter; // a taskwait-depend waiter, already finished by the unit
  bool operator==(const ready_word &) const = default;
};

struct counters {
  uint64_t cycles;         // clock edges since reset
  uint64_t insert_cycles;  // in insertions (loading, checking, placing)
  uint64_t finish_cycles;  // in finishes and kick-offs
  uint64_t blocked_cycles; // idle with a head that does not fit
  uint64_t inserts, finishes;
};

class port {
public:
  virtual ~port() = default;
  virtual const sizes &config() const = 0;
  // Queue a task (n <= max_params distinct keys) or a finished task id.
  // run() writes every queued Finished FIFO word before any New FIFO word
  // queued since the last run, so the unit finishes them first.
  virtual void insert(const param *p, uint32_t n, bool waiter) = 0;
  virtual void finish(uint32_t id) = 0;
  // Clocks until every queued word is in and the unit is idle or blocked
  // (the head does not fit), appending the Ready FIFO words to out. Fatal
  // when the unit makes no progress for a million cycles.
  virtual void run(std::vector<ready_word> &out) = 0;
  virtual bool blocked() const = 0; // the Task Buffer's head waits for room
  virtual bool error() const = 0;   // the unit's sticky err_o
  virtual counters stats() const = 0;
};

// A unit of the given sizes (kTableI or kSmall; others are fatal), just out
// of reset.
std::unique_ptr<port> make_port(const sizes &s);

} // namespace weft::nexus_rtl
