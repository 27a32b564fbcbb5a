#include "picos_config.hpp"

#include "base/env.hpp"
#include "base/error.hpp"

#include <cstdio>
#include <cstring>

namespace weft {

void picos_default_config(weft_picos_config &c) {
  c.cores = 8;
  // Picos' task memory holds 256 in-flight tasks of up to 15 dependences in
  // the Picos papers the Picos paper cites ([20, 24]); the dependence and
  // version memories are twice that. Not in papers/: chosen, documented.
  c.task_memory = 256;
  c.dep_memory = 512;
  c.version_memory = 512;
  // The Manager's queues are Chisel queues of unstated depth: chosen.
  c.ready_queue = 16;
  c.core_queue = 2;
  c.fetch_queue = 64;
  // The prototype's Rocket Chip clock (section VI-A1).
  c.clock_mhz = 80.0;
  c.notify = nullptr;
  c.notify_ctx = nullptr;
}

uint32_t picos_env_uint(const char *name, uint32_t fallback, uint32_t lo,
                        uint32_t hi) {
  env::reader r(env::get, " (picos engine)");
  uint32_t v = fallback;
  r.integer(name, lo, hi, v);
  if (!r.ok())
    fatal("%s", r.error().c_str());
  return v;
}

void picos_check_env_names() {
  static const char *const known[] = {
      "TASK_MEMORY", "DEP_MEMORY",  "VERSION_MEMORY", "READY_QUEUE",
      "CORE_QUEUE",  "FETCH_QUEUE", "CLOCK_MHZ",      "POLL_US"};
  std::string bad =
      env::unknown_in_family("WEFT_PICOS_", known, 8, "the picos engine");
  if (!bad.empty())
    fatal("%s", bad.c_str());
}

void picos_config_from_env(weft_picos_config &c) {
  picos_check_env_names();
  c.task_memory = picos_env_uint("WEFT_PICOS_TASK_MEMORY", c.task_memory, 1,
                                 kPicosMaxTaskMemory);
  c.dep_memory = picos_env_uint("WEFT_PICOS_DEP_MEMORY", c.dep_memory, 1,
                                kPicosMaxCapacity);
  c.version_memory = picos_env_uint("WEFT_PICOS_VERSION_MEMORY",
                                    c.version_memory, 1, kPicosMaxCapacity);
  c.ready_queue = picos_env_uint("WEFT_PICOS_READY_QUEUE", c.ready_queue, 1,
                                 kPicosMaxCapacity);
  c.core_queue = picos_env_uint("WEFT_PICOS_CORE_QUEUE", c.core_queue, 1,
                                kPicosMaxCapacity);
  c.fetch_queue = picos_env_uint("WEFT_PICOS_FETCH_QUEUE", c.fetch_queue, 1,
                                 kPicosMaxCapacity);
  env::reader r(env::get, " (picos engine)");
  r.number("WEFT_PICOS_CLOCK_MHZ", 0, 1e6, true, c.clock_mhz, "a clock in MHz");
  if (!r.ok())
    fatal("%s", r.error().c_str());
}

const char *picos_check_config(const weft_picos_config &c, char *buf,
                               std::size_t n) {
  auto bad = [&](const char *field, unsigned long long v,
                 unsigned long long hi) {
    std::snprintf(buf, n,
                  "weft_picos_create: %s is %llu (must be in [1, %llu])", field,
                  v, hi);
    return buf;
  };
  if (c.cores < 1 || c.cores > 0x3fff)
    return bad("cores", static_cast<unsigned long long>(c.cores), 0x3fff);
  if (c.task_memory < 1 || c.task_memory > kPicosMaxTaskMemory)
    return bad("task_memory", c.task_memory, kPicosMaxTaskMemory);
  if (c.dep_memory < 1 || c.dep_memory > kPicosMaxCapacity)
    return bad("dep_memory", c.dep_memory, kPicosMaxCapacity);
  if (c.version_memory < 1 || c.version_memory > kPicosMaxCapacity)
    return bad("version_memory", c.version_memory, kPicosMaxCapacity);
  if (c.ready_queue < 1 || c.ready_queue > kPicosMaxCapacity)
    return bad("ready_queue", c.ready_queue, kPicosMaxCapacity);
  if (c.core_queue < 1 || c.core_queue > kPicosMaxCapacity)
    return bad("core_queue", c.core_queue, kPicosMaxCapacity);
  if (c.fetch_queue < 1 || c.fetch_queue > kPicosMaxCapacity)
    return bad("fetch_queue", c.fetch_queue, kPicosMaxCapacity);
  if (!(c.clock_mhz > 0) || c.clock_mhz > 1e6) {
    std::snprintf(buf, n,
                  "weft_picos_create: clock_mhz is %g (must be in (0, 1e6])",
                  c.clock_mhz);
    return buf;
  }
  return nullptr;
}

} // namespace weft
