// The HWSE cost model: what each primitive costs the unit, in cycles of its
// clock. The paper (section V-A) gives 2 cycles to cross the interconnect
// plus 1 in the module per register access; a primitive that takes several
// accesses (a loop's INIT writes LOOP_START, LOOP_END and LOOP_INCR, its
// FETCH reads istart and iend) holds the unit under a software test-and-set
// lock in the scratchpad (section VI-A), 2 cycles to take it and 2 to release
// it. Guided chunks are weft's extension: one more register at INIT (the team
// size) and one more module cycle at FETCH to divide what is left by it.
#pragma once

#include <cstdint>

namespace weft::hwse {

// The primitives issued per chunk, section or task come first: their
// counters share the unit's queue line (hwse_unit.hpp).
enum class primitive : uint8_t {
  sections_fetch, // read the next section number
  loop_fetch,     // read istart, iend (locked)
  alloc,          // read a bin address
  free,           // write a bin address
  guided_fetch,   // loop_fetch plus the divide (locked; extension)
  end,            // update the member's work-share register
  sections_init,  // write the section count
  loop_init,      // write LOOP_START, LOOP_END, LOOP_INCR (locked)
  guided_init,    // loop_init plus the team size (locked; extension)
  heap_init,      // write heap base, heap size, bin size (locked)
};
inline constexpr int kHotPrimitiveKinds = 4;
inline constexpr int kPrimitiveKinds = 10;

inline constexpr uint32_t kCrossingCycles = 2; // interconnect, both ways
inline constexpr uint32_t kModuleCycles = 1;   // the FSM and datapath
inline constexpr uint32_t kAccessCycles = kCrossingCycles + kModuleCycles;
inline constexpr uint32_t kLockCycles = 2 + 2; // TAS read + release write
inline constexpr uint32_t kGuidedDivideCycles = 1;

struct primitive_shape {
  const char *name;  // its counter, "hwse.<...>"
  uint32_t accesses; // register accesses
  bool locked;       // needs the software lock (accesses > 1)
  uint32_t extra;    // module cycles beyond one per access
};

constexpr primitive_shape shape(primitive p) {
  switch (p) {
  case primitive::sections_init:
    return {"hwse.sections.init", 1, false, 0};
  case primitive::sections_fetch:
    return {"hwse.sections.fetch", 1, false, 0};
  case primitive::loop_init:
    return {"hwse.loop.init", 3, true, 0};
  case primitive::loop_fetch:
    return {"hwse.loop.fetch", 2, true, 0};
  case primitive::guided_init:
    return {"hwse.guided.init", 4, true, 0};
  case primitive::guided_fetch:
    return {"hwse.guided.fetch", 2, true, kGuidedDivideCycles};
  case primitive::end:
    return {"hwse.end", 1, false, 0};
  case primitive::heap_init:
    return {"hwse.heap.init", 3, true, 0};
  case primitive::alloc:
    return {"hwse.alloc", 1, false, 0};
  case primitive::free:
    return {"hwse.free", 1, false, 0};
  }
  return {"hwse.?", 0, false, 0};
}

// Cycles the unit is busy with p when nobody else uses it.
constexpr uint32_t cycles(primitive p) {
  const primitive_shape s = shape(p);
  return s.accesses * kAccessCycles + (s.locked ? kLockCycles : 0) + s.extra;
}

static_assert(cycles(primitive::sections_fetch) == 3, "paper: 2 + 1 cycles");
static_assert(cycles(primitive::loop_fetch) == 10);

} // namespace weft::hwse
