// The Task Maestro's cycle cost per operation, at the unit's clock
// (WEFT_NEXUS_CLOCK_MHZ, 12.5 MHz on the FPGA), and the PCIe cost per word
// (250 ns write, 400 ns read: paper, section IV-C). The paper gives no cycle
// counts; these are chosen in docs/engines.md ("Cost model") so that
// the emptytask chain (2 dependences per task) costs 33 cycles = 2.6 us per
// task, against the paper's ~3 us per task measured for Nexus++ alone.
#pragma once

#include <cstdint>

namespace weft::nexus_cost {

// One word into or out of a Nexus IO FIFO (descriptor word, ready word,
// finished word): the FIFOs run at 100 MHz, eight times the unit, so the
// unit takes one word per cycle.
inline constexpr uint64_t fifo_word = 1;
// Read, write or free one Task Pool entry (one BRAM word of 250 bits).
inline constexpr uint64_t pool_entry = 1;
// Dependence Table lookup: hash the address, read the set's ways, compare
// them (one visit, the point of the set-associative design).
inline constexpr uint64_t lookup = 3;
// Write one Dependence Table entry (create, update holders, delete).
inline constexpr uint64_t table_write = 1;
// Write (append) or read (kick-off) one Kick-Off List slot.
inline constexpr uint64_t kol_slot = 1;
// Allocate and link a Dummy Kick-Off List, or refill an entry's list from
// one (read the dummy entry, write the entry's list).
inline constexpr uint64_t dummy_kol = 2;
// Store a new task's Dependence Count.
inline constexpr uint64_t count_write = 1;
// Decrement a Dependence Count (read, modify, write).
inline constexpr uint64_t count_decrement = 2;

} // namespace weft::nexus_cost
