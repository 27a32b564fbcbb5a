// The HWSE model behind the work-sharing contract (WEFT_WS_ENGINE=hwse).
//
// One unit per process (the paper's cluster has one HWSE): its control FSM
// serves every primitive of every team, one at a time (hwse_unit). A work
// share is a register bank of its own (LOOP_START = ws_state::next, LOOP_END
// = the count, LOOP_INCR = the chunk), kept in the front end's ws_state, so
// any number of work shares may be live at once (nowait loops, nested
// teams) behind the one FSM. INIT writes the bank, FETCH runs the loop
// datapath on it, END is the member leaving the work share (its
// work-share register is the front end's member_state::ws_index).
//
// Work shares of chunk 1 are served in sections mode (one register access
// per primitive): the contract does not tell sections from a
// schedule(dynamic, 1) loop, and in logical iterations they are the same.
//
// Task descriptors come from the unit's memory bins (hwse_bin_allocator)
// when WEFT_HWSE_BINS > 0.
#pragma once

#include "engines/worksharing_engine.hpp"
#include "hwse_bin_allocator.hpp"
#include "hwse_config.hpp"
#include "hwse_unit.hpp"

#include <memory>

namespace weft::hwse {

class engine final : public worksharing_engine {
public:
  explicit engine(const config &c);

  const char *name() const override { return "hwse"; }
  void init(ws_state &ws, const ws_loop &loop) override;
  bool fetch(ws_state &ws, uint64_t *begin, uint64_t *end) override;
  void end(ws_state &ws) override;
  void add_stats(ws_stats &out) const override;

  bool allocates_descriptors() const override { return bins_ != nullptr; }
  void *alloc_descriptor() override;
  void free_descriptor(void *p) override;

  const config &configuration() const { return cfg_; }
  const unit &fsm() const { return unit_; }
  // Modelled time of n cycles at the unit's clock, in nanoseconds.
  uint64_t cycles_to_ns(uint64_t n) const;

private:
  config cfg_;
  mutable unit unit_; // add_stats reads the allocator under it
  std::unique_ptr<bin_allocator> bins_;
};

} // namespace weft::hwse

namespace weft {
// The engine registered as "hwse", configured from WEFT_HWSE_*.
std::unique_ptr<worksharing_engine> make_hwse_ws_engine();
} // namespace weft
