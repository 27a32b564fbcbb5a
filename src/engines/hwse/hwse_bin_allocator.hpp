// The HWSE as a pre-allocated memory manager (section V-A), reusing the loop
// logic: INIT writes the heap's base, its size and the bin size into
// LOOP_START, LOOP_END and LOOP_INCR; an alloc (FETCH) is served by the loop
// scheduler (the next fresh bin) until the heap is handed out, then by
// popping a freed bin from the FIFO; a free (END) pushes the bin onto the
// FIFO.
//
// Where the paper is silent: a free that finds the FIFO full puts the bin on
// a software overflow list threaded through the free bins themselves (never
// lost, no memory of its own), and an alloc that finds the FIFO empty takes
// one from that list. Every bin is therefore reusable, whatever the FIFO's
// depth. A bin is handed out at most once until freed: a free bin carries a
// mark (its second word: its address xor a constant), checked by every free
// (a bin already marked was freed twice) and every alloc from the FIFO or
// the list; a free of an address that is not a bin handed out is fatal.
//
// Not thread-safe: the unit serves one primitive at a time.
#pragma once

#include "hwse_fifo.hpp"
#include "hwse_loop_datapath.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace weft::hwse {

class bin_allocator {
public:
  // INIT: `bins` bins of `bin_size` bytes (a multiple of 64, at least 16),
  // 64-byte aligned, and a FIFO of fifo_depth entries (32, 64 or 128).
  bin_allocator(uint32_t bins, std::size_t bin_size, uint32_t fifo_depth);
  ~bin_allocator();
  bin_allocator(const bin_allocator &) = delete;
  bin_allocator &operator=(const bin_allocator &) = delete;

  // FETCH: a free bin, or nullptr when every bin is in use.
  void *alloc();
  // END: b, a bin handed out by alloc, is free again.
  void free(void *b);
  // Is p the address of one of the heap's bins?
  bool owns(const void *p) const;

  uint32_t bins() const { return bins_; }
  std::size_t bin_size() const { return bin_size_; }
  const fifo &queue() const { return fifo_; }
  uint64_t handed_out() const { return handed_out_; }        // allocs served
  uint64_t fresh() const { return regs_.start / bin_size_; } // new bins
  uint64_t exhausted() const { return exhausted_; }          // nullptr answers
  uint32_t in_use() const { return in_use_; }
  uint32_t in_use_peak() const { return in_use_peak_; }
  uint64_t overflow_frees() const { return overflow_frees_; }
  uint64_t overflow_allocs() const { return overflow_allocs_; }
  uint32_t overflow_peak() const { return overflow_peak_; }

private:
  uint32_t index_of(const void *b) const;
  void *take_overflow();
  void put_overflow(void *b);

  // What every alloc and free writes, in one line (with the unit's line,
  // all a primitive moves between cores besides the bin and a FIFO slot).
  alignas(64) loop_registers regs_; // fresh bins: byte offsets in the heap
  fifo fifo_;
  void *overflow_ = nullptr; // free bins the FIFO had no room for
  uint64_t handed_out_ = 0;
  uint32_t in_use_ = 0, in_use_peak_ = 0;
  // Read-only after INIT, and the rare paths' counters.
  alignas(64) char *heap_ = nullptr;
  uint32_t bins_;
  std::size_t bin_size_;
  uint64_t exhausted_ = 0;
  uint32_t overflow_n_ = 0, overflow_peak_ = 0;
  uint64_t overflow_frees_ = 0, overflow_allocs_ = 0;
};

// A free bin is marked in its second word (the first links the overflow
// list) with its address xor "hwsefree", so a double or foreign free is
// caught; the model and the RTL co-simulation engine mark bins alike.
inline uint64_t free_mark(const void *b) {
  return 0x6877736566726565 ^ reinterpret_cast<uintptr_t>(b);
}
inline uint64_t bin_word1(const void *b) {
  uint64_t w;
  std::memcpy(&w, static_cast<const char *>(b) + 8, sizeof w);
  return w;
}
inline void set_bin_word1(void *b, uint64_t w) {
  std::memcpy(static_cast<char *>(b) + 8, &w, sizeof w);
}

} // namespace weft::hwse
