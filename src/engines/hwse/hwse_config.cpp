#include "hwse_config.hpp"

#include "../../core/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace weft::hwse {
namespace {

// A decimal number in [lo, hi], nothing else (no sign, no spaces).
bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
  if (*s < '0' || *s > '9')
    return false;
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

bool given(const char *s) { return s && *s; }

} // namespace

bool parse_config(const char *fifo, const char *bins, const char *clock_mhz,
                  config *out, std::string *error) {
  config c;
  char msg[256];
  if (given(fifo) &&
      (!parse_u32(fifo, 32, 128, &c.fifo_depth) ||
       (c.fifo_depth != 32 && c.fifo_depth != 64 && c.fifo_depth != 128))) {
    std::snprintf(msg, sizeof msg,
                  "WEFT_HWSE_FIFO=%s: not a FIFO depth of the HWSE (32, 64 "
                  "or 128)",
                  fifo);
    *error = msg;
    return false;
  }
  if (given(bins) && !parse_u32(bins, 0, kMaxBins, &c.bins)) {
    std::snprintf(msg, sizeof msg,
                  "WEFT_HWSE_BINS=%s: not a number of memory bins in [0, %u]",
                  bins, kMaxBins);
    *error = msg;
    return false;
  }
  if (given(clock_mhz) &&
      !parse_u32(clock_mhz, 1, kMaxClockMhz, &c.clock_mhz)) {
    std::snprintf(msg, sizeof msg,
                  "WEFT_HWSE_CLOCK_MHZ=%s: not a clock in MHz in [1, %u]",
                  clock_mhz, kMaxClockMhz);
    *error = msg;
    return false;
  }
  *out = c;
  return true;
}

config config_from_env() {
  config c;
  std::string error;
  if (!parse_config(std::getenv("WEFT_HWSE_FIFO"),
                    std::getenv("WEFT_HWSE_BINS"),
                    std::getenv("WEFT_HWSE_CLOCK_MHZ"), &c, &error))
    fatal("%s", error.c_str());
  return c;
}

} // namespace weft::hwse
