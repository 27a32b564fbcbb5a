// The HWSE model's parameters and the WEFT_HWSE_* variables that set them.
#pragma once

#include <cstdint>
#include <string>

namespace weft::hwse {

struct config {
  // Entries of the circular FIFO (the paper synthesised 32, 64 and 128).
  uint32_t fifo_depth = 128;
  // Memory bins of the descriptor heap (0: the unit allocates nothing and
  // the core keeps its own pools). 1024 bins of 192 bytes are 192 KiB, in
  // the paper's 256 KB scratchpad.
  uint32_t bins = 1024;
  // The unit's clock (the paper's synthesis: 400 MHz at 28 nm).
  uint32_t clock_mhz = 400;
};

inline constexpr uint32_t kMaxBins = uint32_t(1) << 20;
inline constexpr uint32_t kMaxClockMhz = 100000;

// Parses WEFT_HWSE_FIFO, WEFT_HWSE_BINS and WEFT_HWSE_CLOCK_MHZ's values
// (nullptr or "" keeps the default). On a bad value returns false and sets
// *error to a message naming the variable and the value.
bool parse_config(const char *fifo, const char *bins, const char *clock_mhz,
                  config *out, std::string *error);

// The configuration from the environment; a bad value or a misspelt
// WEFT_HWSE_* variable is fatal.
config config_from_env();

} // namespace weft::hwse
