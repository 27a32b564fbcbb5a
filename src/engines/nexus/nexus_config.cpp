#include "nexus_config.hpp"

#include "base/env.hpp"
#include "base/error.hpp"

namespace weft {

nexus_config nexus_config::from_env(getenv_fn get) {
  nexus_config c;
  env::reader r(get, " (nexus engine)");
  constexpr uint32_t kBig = 1u << 20;
  r.integer("WEFT_NEXUS_POOL", 1, kBig, c.pool);
  r.integer("WEFT_NEXUS_PARAMS", 1, 1024, c.params);
  r.integer("WEFT_NEXUS_SETS", 1, 1u << 16, c.sets);
  r.integer("WEFT_NEXUS_WAYS", 1, 64, c.ways);
  r.integer("WEFT_NEXUS_KOL", 1, 1024, c.kol);
  r.integer("WEFT_NEXUS_DUMMY_KOL", 0, kBig, c.dummy_kol);
  r.integer("WEFT_NEXUS_TASK_BUFFER", 1, 1024, c.task_buffer);
  uint32_t fifo = 0;
  if (r.integer("WEFT_NEXUS_FIFO", 1, 1u << 16, fifo))
    c.new_fifo = c.ready_fifo = c.finished_fifo = fifo;
  r.integer("WEFT_NEXUS_NEW_FIFO", 1, 1u << 16, c.new_fifo);
  r.integer("WEFT_NEXUS_READY_FIFO", 1, 1u << 16, c.ready_fifo);
  r.integer("WEFT_NEXUS_FINISHED_FIFO", 1, 1u << 16, c.finished_fifo);
  static const char *const modes[] = {"inline", "thread"};
  int mode;
  if (r.choice("WEFT_NEXUS_MODE", modes, 2, mode))
    c.mode = mode == 0 ? nexus_mode::inline_unit : nexus_mode::thread;
  r.number("WEFT_NEXUS_CLOCK_MHZ", 0.0, 100000.0, true, c.clock_mhz,
           "a clock in MHz");
  r.integer("WEFT_NEXUS_PCIE_WRITE_NS", 0, 1000000, c.pcie_write_ns);
  r.integer("WEFT_NEXUS_PCIE_READ_NS", 0, 1000000, c.pcie_read_ns);
  if (!r.ok())
    fatal("%s", r.error().c_str());
  return c;
}

nexus_config nexus_config::from_env() {
  static const char *const known[] = {
      "POOL",      "PARAMS",        "SETS",          "WAYS",
      "KOL",       "DUMMY_KOL",     "TASK_BUFFER",   "FIFO",
      "NEW_FIFO",  "READY_FIFO",    "FINISHED_FIFO", "MODE",
      "CLOCK_MHZ", "PCIE_WRITE_NS", "PCIE_READ_NS"};
  std::string bad =
      env::unknown_in_family("WEFT_NEXUS_", known, 15, "the nexus engine");
  if (!bad.empty())
    fatal("%s", bad.c_str());
  return from_env(env::get);
}

} // namespace weft
