// The work-sharing engine contract: the HWSE paper's INIT / FETCH / END
// primitives (section IV) behind OpenMP's dynamic and guided loops and its
// sections. A work share is described in logical iterations [0, count); the
// front end maps chunks back to the loop's own bounds and stride (sections
// are the case chunk = 1).
//
//   init(ws, loop)   the first member to reach the work share describes it
//   fetch(ws)        any member: the next chunk [begin, end), or false when
//                    no iteration is left
//   end(ws)          each member once, when it leaves the work share
//
// Static schedules never reach the engine: each member computes its own
// chunks, with no shared state.
#pragma once

#include "engine.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace weft {

enum class ws_kind : uint8_t { dynamic, guided };

struct ws_loop {
  uint64_t count; // logical iterations
  uint64_t chunk; // >= 1 (guided: the minimum chunk)
  ws_kind kind;
  int nthreads; // members of the team (guided's divisor)
};

// The state of one work share; engines keep what they need in it. The
// description is read on every FETCH and never written after INIT: it sits
// on a line of its own, away from the counter every member updates.
struct alignas(64) ws_state {
  ws_loop loop{};
  alignas(64) std::atomic<uint64_t> next{0}; // first iteration not handed out
};

struct ws_stats {
  uint64_t inits = 0, fetches = 0, ends = 0;
  uint64_t modelled_cycles = 0;
  std::vector<engine_counter> counters; // the engine's own named counters
  void add(const char *name, uint64_t value) {
    counters.push_back({name, value});
  }
};

class worksharing_engine {
public:
  virtual ~worksharing_engine() = default;
  virtual const char *name() const = 0;
  virtual void init(ws_state &ws, const ws_loop &loop) = 0;
  virtual bool fetch(ws_state &ws, uint64_t *begin, uint64_t *end) = 0;
  virtual void end(ws_state &ws) = 0;
  virtual void add_stats(ws_stats &out) const = 0;

  // Task descriptors from the engine's memory bins (HWSE: FETCH allocates a
  // bin, END frees it), any thread. alloc_descriptor returns nullptr when no
  // bin is free; the core then takes one from its own pools.
  virtual bool allocates_descriptors() const { return false; }
  virtual void *alloc_descriptor() { return nullptr; }
  virtual void free_descriptor(void *) {}
};

// Work-sharing engine by name ("sw"); nullptr if unknown.
std::unique_ptr<worksharing_engine> make_ws_engine(const std::string &name);
const char *ws_engine_names();

} // namespace weft
