#include "hwse_config.hpp"

#include "base/env.hpp"
#include "base/error.hpp"

#include <cstdio>

namespace weft::hwse {
namespace {

bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
  uint64_t v;
  if (!env::parse_uint(s, lo, hi, v))
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
  static const char *const known[] = {"FIFO", "BINS", "CLOCK_MHZ"};
  std::string bad =
      env::unknown_in_family("WEFT_HWSE_", known, 3, "the hwse engine");
  if (!bad.empty())
    fatal("%s", bad.c_str());
  config c;
  std::string error;
  if (!parse_config(env::get("WEFT_HWSE_FIFO"), env::get("WEFT_HWSE_BINS"),
                    env::get("WEFT_HWSE_CLOCK_MHZ"), &c, &error))
    fatal("%s", error.c_str());
  return c;
}

} // namespace weft::hwse
