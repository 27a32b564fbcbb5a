// "Nexus++ and runtime" (Nexus++ paper, V-B): Nexus++ plus the PCIe
// communication, (n + 1) x 250 + 400 ns from ready to start (n descriptor
// words written and one ready word read: the nexus engine's PCIe costs) and
// 250 ns from a task's end to Nexus++ receiving it, plus the 5 us per task
// of the runtime's own work the paper measured in VSs, added as the paper
// does to each task's length (on the core that starts it, before its body).
#include "nexus.hpp"

namespace weft::sim {

namespace {

// The paper's measured VSs cost per task beyond what Nexus++ replaces.
constexpr uint64_t kRuntimeNsPerTask = 5000;

class nexus_rt_model : public nexus_model {
public:
  explicit nexus_rt_model(params &p) : nexus_model(p, "nexus+rt") {
    const char *who = "nexus+rt";
    word_ps_ = kPsPerNs *
               p.get_uint(who, "ready_word_ns", cfg_.pcie_write_ns, 0, 1000000);
    read_ps_ = kPsPerNs *
               p.get_uint(who, "ready_read_ns", cfg_.pcie_read_ns, 0, 1000000);
    finish_ps_ = kPsPerNs * p.get_uint(who, "finish_latency_ns",
                                       cfg_.pcie_write_ns, 0, 1000000);
    runtime_ps_ = kPsPerNs * p.get_uint(who, "runtime_ns", kRuntimeNsPerTask, 0,
                                        1000000000);
  }

  uint64_t schedule_ps() const override { return runtime_ps_; }
  uint64_t ready_latency_ps(uint32_t ndeps) const override {
    return (uint64_t(ndeps) + 1) * word_ps_ + read_ps_;
  }
  uint64_t finish_latency_ps() const override { return finish_ps_; }

private:
  uint64_t word_ps_, read_ps_, finish_ps_, runtime_ps_;
};

} // namespace

std::unique_ptr<model> make_nexus_rt_model(params &p) {
  return std::make_unique<nexus_rt_model>(p);
}

} // namespace weft::sim
