// Picos behind the Picos Manager (Picos paper, IV): the cores' custom
// instructions and Picos' own cycles (src/engines/picos/picos_config.hpp,
// as the picos engine charges them) at the Rocket Chip's clock, and Picos'
// task memory as its capacity.
#include "../model.hpp"

#include "engines/picos/picos_config.hpp"

namespace weft::sim {

namespace {

class picos_model : public model {
public:
  explicit picos_model(params &p) {
    picos_default_config(cfg_);
    picos_config_from_env(cfg_);
    const char *who = "picos";
    cfg_.clock_mhz = p.get_double(who, "clock_mhz", cfg_.clock_mhz, 0, 1e6);
    cfg_.task_memory = static_cast<uint32_t>(p.get_uint(
        who, "task_memory", cfg_.task_memory, 1, kPicosMaxTaskMemory));
  }

  // Submission Request, then one Submit Three Packets per three of the
  // 3 + 3 D packets.
  uint64_t spawn_ps(uint32_t ndeps) const override {
    return ps((2 + uint64_t(ndeps)) * kPicosInstructionCycles);
  }
  // Ready Task Request, Fetch SW ID, Fetch Picos ID.
  uint64_t schedule_ps() const override {
    return ps(3 * kPicosInstructionCycles);
  }
  // Retire Task.
  uint64_t finish_ps(uint32_t) const override {
    return ps(kPicosInstructionCycles);
  }
  bool has_unit() const override { return true; }
  // Picos takes 48 packets per task; a task ready at once is handed to the
  // Manager (its three packets fetched).
  uint64_t insert_ps(uint32_t, uint32_t waits) const override {
    return ps(WEFT_PICOS_PACKETS * kPicosPacketCycles +
              (waits == 0 ? kPicosReadyTaskCycles : 0));
  }
  uint64_t retire_ps(uint32_t, uint32_t, uint32_t readied) const override {
    return ps(kPicosRetireCycles + uint64_t(readied) * kPicosReadyTaskCycles);
  }
  uint32_t capacity() const override { return cfg_.task_memory; }

private:
  uint64_t ps(uint64_t cycles) const {
    return cycles_ps(cycles, cfg_.clock_mhz);
  }
  weft_picos_config cfg_;
};

} // namespace

std::unique_ptr<model> make_picos_model(params &p) {
  return std::make_unique<picos_model>(p);
}

} // namespace weft::sim
