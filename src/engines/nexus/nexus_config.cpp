#include "nexus_config.hpp"

#include "../../core/error.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace weft {

namespace {

// Unsigned integer in [lo, hi], decimal or 0x-hex, nothing else.
void read_uint(nexus_config::getenv_fn get, const char *name, uint32_t lo,
               uint32_t hi, uint32_t &out) {
  const char *s = get(name);
  if (!s)
    return;
  const char *p = s;
  while (*p == ' ' || *p == '\t')
    ++p;
  char *end = nullptr;
  errno = 0;
  unsigned long long v = *p == '-' ? 0 : std::strtoull(p, &end, 0);
  bool ok = *p != '-' && *p != '\0' && end && end != p && errno == 0;
  while (ok && (*end == ' ' || *end == '\t'))
    ++end;
  if (!ok || *end != '\0' || v < lo || v > hi)
    fatal("%s=%s: expected an integer in [%u, %u] (nexus engine)", name, s, lo,
          hi);
  out = static_cast<uint32_t>(v);
}

void read_double(nexus_config::getenv_fn get, const char *name, double lo,
                 double hi, double &out) {
  const char *s = get(name);
  if (!s)
    return;
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(s, &end);
  bool ok = end && end != s && errno == 0 && std::isfinite(v);
  while (ok && (*end == ' ' || *end == '\t'))
    ++end;
  if (!ok || *end != '\0' || !(v > lo) || v > hi)
    fatal("%s=%s: expected a number in (%g, %g] (nexus engine)", name, s, lo,
          hi);
  out = v;
}

const char *plain_getenv(const char *name) {
  const char *s = std::getenv(name);
  return s && *s ? s : nullptr;
}

} // namespace

nexus_config nexus_config::from_env(getenv_fn get) {
  nexus_config c;
  constexpr uint32_t kBig = 1u << 20;
  read_uint(get, "WEFT_NEXUS_POOL", 1, kBig, c.pool);
  read_uint(get, "WEFT_NEXUS_PARAMS", 1, 1024, c.params);
  read_uint(get, "WEFT_NEXUS_SETS", 1, 1u << 16, c.sets);
  read_uint(get, "WEFT_NEXUS_WAYS", 1, 64, c.ways);
  read_uint(get, "WEFT_NEXUS_KOL", 1, 1024, c.kol);
  read_uint(get, "WEFT_NEXUS_DUMMY_KOL", 0, kBig, c.dummy_kol);
  read_uint(get, "WEFT_NEXUS_TASK_BUFFER", 1, 1024, c.task_buffer);
  uint32_t fifo = 0;
  read_uint(get, "WEFT_NEXUS_FIFO", 1, 1u << 16, fifo);
  if (fifo)
    c.new_fifo = c.ready_fifo = c.finished_fifo = fifo;
  read_uint(get, "WEFT_NEXUS_NEW_FIFO", 1, 1u << 16, c.new_fifo);
  read_uint(get, "WEFT_NEXUS_READY_FIFO", 1, 1u << 16, c.ready_fifo);
  read_uint(get, "WEFT_NEXUS_FINISHED_FIFO", 1, 1u << 16, c.finished_fifo);
  if (const char *m = get("WEFT_NEXUS_MODE")) {
    if (std::strcmp(m, "inline") == 0)
      c.mode = nexus_mode::inline_unit;
    else if (std::strcmp(m, "thread") == 0)
      c.mode = nexus_mode::thread;
    else
      fatal("WEFT_NEXUS_MODE=%s: expected inline or thread (nexus engine)", m);
  }
  read_double(get, "WEFT_NEXUS_CLOCK_MHZ", 0.0, 100000.0, c.clock_mhz);
  read_uint(get, "WEFT_NEXUS_PCIE_WRITE_NS", 0, 1000000, c.pcie_write_ns);
  read_uint(get, "WEFT_NEXUS_PCIE_READ_NS", 0, 1000000, c.pcie_read_ns);
  return c;
}

nexus_config nexus_config::from_env() { return from_env(plain_getenv); }

} // namespace weft
