// A model of what the task runtime and its scheduler cost, as the simulator
// (simulator.hpp) charges it. Times are in picoseconds, so that a clock's
// cycle (12.5 ns at 80 MHz) is exact. docs/simulator.md describes the models.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace weft::sim {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr uint64_t kPsPerNs = 1000;

// Picoseconds of `cycles` at `mhz`, rounded to the nearest picosecond.
uint64_t cycles_ps(uint64_t cycles, double mhz);

// What a task costs where. The defaults cost nothing ("No overhead").
class model {
public:
  virtual ~model() = default;
  // On the creating core, before the new task reaches the scheduler.
  virtual uint64_t spawn_ps(uint32_t /*ndeps*/) const { return 0; }
  // On the creating core too, once for a new task with at least one
  // predecessor that ran, or is running, on another core (whose cache holds
  // that predecessor's descriptor).
  virtual uint64_t spawn_remote_ps() const { return 0; }
  // On the core that starts a task, before its body (explicit tasks only:
  // roots and a region's implicit tasks are not scheduled).
  virtual uint64_t schedule_ps() const { return 0; }
  // Instead of schedule_ps, for a task that starts on the core whose
  // task's completion made it ready, at once (a runtime's immediate
  // successor: no hand-off to another core).
  virtual uint64_t local_schedule_ps() const { return schedule_ps(); }
  // On the core, after the body; the task completes after it (explicit
  // tasks only).
  virtual uint64_t finish_ps(uint32_t /*ndeps*/) const { return 0; }
  // On the waiting core, for each taskwait, taskwait on, taskgroup end and
  // barrier.
  virtual uint64_t wait_ps() const { return 0; }
  // From the scheduler finding a task ready to the task being startable.
  virtual uint64_t ready_latency_ps(uint32_t /*ndeps*/) const { return 0; }
  // From a task's completion to the scheduler learning of it.
  virtual uint64_t finish_latency_ps() const { return 0; }

  // The dependence unit: one server that takes insertions and retirements
  // in arrival order, each for the time below. No unit: both are instant.
  virtual bool has_unit() const { return false; }
  // Inserting a task that waits for `waits` unfinished predecessors.
  virtual uint64_t insert_ps(uint32_t /*ndeps*/, uint32_t /*waits*/) const {
    return 0;
  }
  // Retiring a task whose completion reaches `kicked` registered
  // successors, `readied` of which become ready.
  virtual uint64_t retire_ps(uint32_t /*ndeps*/, uint32_t /*kicked*/,
                             uint32_t /*readied*/) const {
    return 0;
  }
  // The unit's capacity in entries (0: unbounded) and what a task takes,
  // from its insertion to the end of its retirement. Creation stalls while
  // the task does not fit.
  virtual uint32_t capacity() const { return 0; }
  virtual uint32_t entries(uint32_t /*ndeps*/) const { return 1; }
};

// The --param values given, shared by the models of one run: each model
// reads the keys it knows; a key that no model read is an error.
class params {
public:
  // "key=value" strings; an error names the malformed one.
  explicit params(const std::vector<std::string> &kv = {});
  void set(const std::string &key, const std::string &value);
  bool has(const std::string &key) const;

  // The value of `key` in [lo, hi], or `fallback` when not given; `who`
  // (the model) names the owner in errors.
  uint64_t get_uint(const char *who, const std::string &key, uint64_t fallback,
                    uint64_t lo, uint64_t hi);
  double get_double(const char *who, const std::string &key, double fallback,
                    double lo, double hi);
  std::string get_string(const char *who, const std::string &key,
                         const std::string &fallback);
  // Throws if a given key was read by no model, naming it and the known keys.
  void check_all_used(const std::string &models) const;

private:
  std::map<std::string, std::string> values_;
  std::set<std::string> read_, known_;
};

// The model called `name` ("ideal", "nexus", "nexus+rt", "picos", "sw").
std::unique_ptr<model> make_model(const std::string &name, params &p);
// The names make_model accepts.
const std::vector<std::string> &model_names();

// One per file in models/.
std::unique_ptr<model> make_ideal_model(params &p);
std::unique_ptr<model> make_nexus_model(params &p);
std::unique_ptr<model> make_nexus_rt_model(params &p);
std::unique_ptr<model> make_picos_model(params &p);
std::unique_ptr<model> make_sw_model(params &p);

} // namespace weft::sim
