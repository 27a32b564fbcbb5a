// "Nexus++ only" (Nexus++ paper, V-B): the Task Maestro's cycles per
// insertion and per finish (src/engines/nexus/nexus_cost_model.hpp, as the
// nexus engine charges them) at its clock, and its Task Pool's capacity.
#pragma once

#include "../model.hpp"

#include "engines/nexus/nexus_config.hpp"

namespace weft::sim {

class nexus_model : public model {
public:
  // The WEFT_NEXUS_* defaults (nexus_config::from_env), then --param pool,
  // params and clock_mhz.
  nexus_model(params &p, const char *who);

  bool has_unit() const override { return true; }
  uint64_t insert_ps(uint32_t ndeps, uint32_t waits) const override;
  uint64_t retire_ps(uint32_t ndeps, uint32_t kicked,
                     uint32_t readied) const override;
  uint32_t capacity() const override { return cfg_.pool; }
  uint32_t entries(uint32_t ndeps) const override;

protected:
  nexus_config cfg_;
};

} // namespace weft::sim
