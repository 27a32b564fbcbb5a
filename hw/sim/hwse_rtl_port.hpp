// The Verilator-compiled HWSE (hw/hwse/hwse.sv, XLEN = 64) behind one call
// per register access. A port owns one simulated unit and its clock; it is
// not thread-safe (the co-simulation engine gives it one owning thread).
#pragma once

#include <cstdint>
#include <memory>

namespace weft::hwse_rtl {

// hw/hwse/hwse_pkg.sv's register map (word addresses). The block tests
// exercise every register through these numbers, so a drift fails them.
enum reg : unsigned {
  kLoopStart = 0,
  kLoopEnd = 1,
  kLoopIncr = 2,
  kLoopMembers = 3,
  kSectionsInit = 4,
  kSectionsFetch = 5,
  kFetchIstart = 6,
  kFetchIend = 7,
  kEnd = 8,
  kHeapStart = 9,
  kHeapEnd = 10,
  kHeapIncr = 11,
  kAlloc = 12,
  kFree = 13,
  kStatus = 14,
  kWsBase = 16,
};
inline constexpr uint64_t kNone = ~uint64_t(0); // FETCH / ALLOC: nothing left
inline constexpr unsigned kThreads = 16;        // NTHREADS of the models built
inline constexpr unsigned kDivBits = 4;         // DIV_BITS of the models built

struct response {
  uint64_t rdata;
  bool error;
  uint32_t cycles; // clock edges from presenting the access to its response
};

class port {
public:
  virtual ~port() = default;
  // One access: presents it, clocks until the unit takes it and answers.
  virtual response access(bool write, unsigned addr, uint64_t wdata) = 0;
  response read(unsigned addr) { return access(false, addr, 0); }
  response write(unsigned addr, uint64_t v) { return access(true, addr, v); }
  virtual uint64_t cycles() const = 0; // clock edges since reset
  virtual unsigned fifo_depth() const = 0;
};

// A unit with a FIFO of fifo_depth entries (32, 64 or 128; anything else is
// fatal), just out of reset.
std::unique_ptr<port> make_port(unsigned fifo_depth);

} // namespace weft::hwse_rtl
