#include "nexus.hpp"

#include "engines/nexus/nexus_cost_model.hpp"

namespace weft::sim {

nexus_model::nexus_model(params &p, const char *who)
    : cfg_(nexus_config::from_env()) {
  cfg_.pool =
      static_cast<uint32_t>(p.get_uint(who, "pool", cfg_.pool, 1, 1u << 20));
  cfg_.params =
      static_cast<uint32_t>(p.get_uint(who, "params", cfg_.params, 1, 1024));
  cfg_.clock_mhz = p.get_double(who, "clock_mhz", cfg_.clock_mhz, 0, 1e5);
}

uint32_t nexus_model::entries(uint32_t ndeps) const {
  return ndeps == 0 ? 1 : (ndeps + cfg_.params - 1) / cfg_.params;
}

// docs/engines.md, "Cost model": the descriptor's words, the pool writes,
// a lookup and an entry write per parameter, a Kick-Off List slot per
// predecessor waited for, then a count write (waits) or a ready word.
uint64_t nexus_model::insert_ps(uint32_t ndeps, uint32_t waits) const {
  namespace c = nexus_cost;
  uint64_t cycles =
      (uint64_t(ndeps) + 1) * c::fifo_word + entries(ndeps) * c::pool_entry +
      uint64_t(ndeps) * (c::lookup + c::table_write) +
      uint64_t(waits) * c::kol_slot + (waits ? c::count_write : c::fifo_word);
  return cycles_ps(cycles, cfg_.clock_mhz);
}

// The finished word, a lookup and entry write per parameter, a list slot
// and a count decrement per task kicked off, a ready word per task made
// ready, and reading and freeing the pool entries.
uint64_t nexus_model::retire_ps(uint32_t ndeps, uint32_t kicked,
                                uint32_t readied) const {
  namespace c = nexus_cost;
  uint64_t cycles = c::fifo_word +
                    uint64_t(ndeps) * (c::lookup + c::table_write) +
                    uint64_t(kicked) * (c::kol_slot + c::count_decrement) +
                    uint64_t(readied) * c::fifo_word +
                    2 * uint64_t(entries(ndeps)) * c::pool_entry;
  return cycles_ps(cycles, cfg_.clock_mhz);
}

std::unique_ptr<model> make_nexus_model(params &p) {
  return std::make_unique<nexus_model>(p, "nexus");
}

} // namespace weft::sim
