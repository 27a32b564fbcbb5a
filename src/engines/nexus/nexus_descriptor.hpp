// A task descriptor as the Nexus Plugin (the submitting thread) formats it
// for the New Tasks FIFO: the task, its dependence domain and its parameters
// (address and access class). Duplicate addresses of one task are merged
// while formatting, so that a task never waits for itself in a Kick-Off
// List: the same mode twice keeps it, two different modes become inout.
#pragma once

#include "core/task.hpp"

#include <weft/weft.h>

#include <cstdint>
#include <vector>

namespace weft {

struct nexus_domain;

// Access classes. Tasks of one concurrent class (in, inoutset) on one
// address may hold it together; out (out, inout, mutexinoutset) holds it
// alone.
enum class nexus_access : uint8_t { in = 1, out = 2, inoutset = 3 };

inline bool nexus_concurrent(nexus_access a) { return a != nexus_access::out; }

// mutexinoutset is treated as inout: its members then run one at a time in
// submission order, which is one of the orders OpenMP allows.
nexus_access nexus_access_of(weft_dep_mode m);

struct nexus_param {
  uintptr_t addr;
  nexus_access acc;
};

inline constexpr uint32_t kNexusInlineParams = 8;

struct nexus_descriptor {
  task *t = nullptr;
  nexus_domain *dom = nullptr; // one reference held while in the unit
  uint32_t tag = 0;            // the domain's tag (0: no parameters)
  uint32_t n = 0;              // parameters, duplicates merged
  uint32_t ndeps = 0;          // dependences offered (ndeps + 1 words)
  bool waiter = false;         // a taskwait-depend pseudo task
  bool owns_more = false;      // `more` is heap memory of this descriptor
  nexus_param *more = nullptr; // the parameters when n > kNexusInlineParams
  nexus_param head[kNexusInlineParams];

  const nexus_param *params() const {
    return n > kNexusInlineParams ? more : head;
  }
};

// Fills d.n, d.ndeps and the parameters from deps (validated by the core),
// merging duplicates. With more than kNexusInlineParams parameters they stay
// in `spill`, which must outlive the use of d (see nexus_own_params).
void nexus_format(nexus_descriptor &d, const weft_dep *deps, int ndeps,
                  std::vector<nexus_param> &spill);

// Moves spilled parameters to heap memory owned by d (for a descriptor that
// travels through the New FIFO); nexus_free_params releases it.
void nexus_own_params(nexus_descriptor &d);
void nexus_free_params(nexus_descriptor &d);

} // namespace weft
