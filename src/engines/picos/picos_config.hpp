// Picos' and the Picos Manager's parameters: the capacities of their
// structures, the modelled cycles of each operation and the clock that turns
// cycles into time. Defaults and their sources: docs/engines.md; the
// WEFT_PICOS_* variables override them for the `picos` engine.
#pragma once

#include <weft/picos.h>

#include <cstddef>
#include <cstdint>

namespace weft {

// Modelled cycles. Every custom instruction is a RoCC instruction that
// takes 2 cycles when the Delegate answers at once (the paper gives this for
// Fetch SW ID and Fetch Picos ID; we use it for all seven). Picos' submission
// interface takes one 32-bit packet a cycle, so a task costs Picos 48 cycles
// whatever its dependence count (the zero padder's packets included); handing
// a ready task from Picos to the Manager costs the 8 cycles the paper gives
// for fetching its three packets; a retirement is one packet, one cycle.
inline constexpr uint64_t kPicosInstructionCycles = 2;
inline constexpr uint64_t kPicosPacketCycles = 1;
inline constexpr uint64_t kPicosReadyTaskCycles = 8;
inline constexpr uint64_t kPicosRetireCycles = 1;

// Largest task memory: a Picos ID carries the entry's index in 16 bits.
inline constexpr uint32_t kPicosMaxTaskMemory = 0xffff;
// Largest other structure (a sanity bound for the environment variables).
inline constexpr uint32_t kPicosMaxCapacity = 1u << 24;

// Fills c with the defaults (cores = 8, the paper's prototype).
void picos_default_config(weft_picos_config &c);

// Overrides c's capacities and clock from WEFT_PICOS_TASK_MEMORY,
// WEFT_PICOS_DEP_MEMORY, WEFT_PICOS_VERSION_MEMORY, WEFT_PICOS_READY_QUEUE,
// WEFT_PICOS_CORE_QUEUE, WEFT_PICOS_FETCH_QUEUE and WEFT_PICOS_CLOCK_MHZ.
// A malformed or out-of-range value is fatal, naming variable and value;
// so is a WEFT_PICOS_* variable that none of these (nor WEFT_PICOS_POLL_US,
// the engine's) names.
void picos_config_from_env(weft_picos_config &c);

// Reads an unsigned environment variable in [lo, hi]; `fallback` if unset.
// Fatal (naming the variable and value) if malformed or out of range.
uint32_t picos_env_uint(const char *name, uint32_t fallback, uint32_t lo,
                        uint32_t hi);

// nullptr if c is valid, else a message naming the field and the value
// (written into buf).
const char *picos_check_config(const weft_picos_config &c, char *buf,
                               std::size_t n);

} // namespace weft
