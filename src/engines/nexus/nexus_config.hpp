// The Nexus++ Task Maestro's parameters: the sizes of Table I of the paper
// by default, each overridable by a WEFT_NEXUS_* environment variable
// (docs/engines.md lists them). A bad value is fatal, with a message
// naming the variable, its value and what is accepted.
#pragma once

#include <cstdint>

namespace weft {

// inline: the unit is one lock; the submitting or retiring worker does the
// unit's work itself. thread: a manager thread is the unit and talks to the
// workers only through the New / Ready / Finished FIFOs, as the board does.
enum class nexus_mode : uint8_t { inline_unit, thread };

struct nexus_config {
  uint32_t pool = 1024;      // Task Pool entries (WEFT_NEXUS_POOL)
  uint32_t params = 8;       // parameters per entry (WEFT_NEXUS_PARAMS)
  uint32_t sets = 256;       // Dependence Table sets (WEFT_NEXUS_SETS)
  uint32_t ways = 8;         // ways per set (WEFT_NEXUS_WAYS)
  uint32_t kol = 8;          // task ids per Kick-Off List (WEFT_NEXUS_KOL)
  uint32_t dummy_kol = 1024; // Dummy Kick-Off List table (WEFT_NEXUS_DUMMY_KOL)
  uint32_t task_buffer = 8;  // Task Buffer tasks (WEFT_NEXUS_TASK_BUFFER)
  // FIFO depths in tasks (WEFT_NEXUS_FIFO sets all three; the per-FIFO
  // variables WEFT_NEXUS_NEW_FIFO, _READY_FIFO, _FINISHED_FIFO win).
  uint32_t new_fifo = 32;
  uint32_t ready_fifo = 32;
  uint32_t finished_fifo = 32;
  nexus_mode mode = nexus_mode::inline_unit; // WEFT_NEXUS_MODE
  double clock_mhz = 12.5;                   // WEFT_NEXUS_CLOCK_MHZ
  uint32_t pcie_write_ns = 250;              // WEFT_NEXUS_PCIE_WRITE_NS
  uint32_t pcie_read_ns = 400;               // WEFT_NEXUS_PCIE_READ_NS

  // The defaults overridden by the environment; `get` is the lookup (tests
  // pass their own). Aborts with a clear message on a bad value; the
  // process-environment version also on a misspelt WEFT_NEXUS_* variable.
  using getenv_fn = const char *(*)(const char *);
  static nexus_config from_env(getenv_fn get);
  static nexus_config from_env();
};

} // namespace weft
