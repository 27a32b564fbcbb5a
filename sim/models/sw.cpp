// weft's software runtime: per-operation costs measured by `weft calibrate`
// (a JSON file of ns: spawn_base_ns, spawn_per_dep_ns, schedule_ns,
// finish_base_ns, finish_per_dep_ns, taskwait_ns, spawn_remote_ns), all on
// the cores.
#include "../model.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace weft::sim {

namespace {

class sw_model : public model {
public:
  explicit sw_model(const std::string &path) {
    std::ifstream in(path);
    if (!in)
      throw error("model sw: calibration file " + path +
                  " not found (run `weft calibrate` to write it, or give "
                  "--param calibration=FILE)");
    nlohmann::json j;
    try {
      in >> j;
    } catch (const nlohmann::json::exception &e) {
      throw error("model sw: " + path + " is not valid JSON: " + e.what());
    }
    auto get = [&](const char *key) -> uint64_t {
      if (!j.is_object() || !j.contains(key) || !j[key].is_number())
        throw error("model sw: " + path + " has no number \"" + key +
                    "\" (run `weft calibrate` to rewrite it)");
      double v = j[key].get<double>();
      if (!(v >= 0) || !std::isfinite(v))
        throw error("model sw: " + path + ": \"" + key + "\" is " +
                    std::to_string(v) + ", expected ns >= 0");
      return static_cast<uint64_t>(std::llround(v * kPsPerNs));
    };
    spawn_base_ = get("spawn_base_ns");
    spawn_dep_ = get("spawn_per_dep_ns");
    schedule_ = get("schedule_ns");
    finish_base_ = get("finish_base_ns");
    finish_dep_ = get("finish_per_dep_ns");
    taskwait_ = get("taskwait_ns");
    remote_ = get("spawn_remote_ns");
  }

  uint64_t spawn_ps(uint32_t ndeps) const override {
    return spawn_base_ + ndeps * spawn_dep_;
  }
  // spawn_remote_ns: calibrate measured it flat in the number of remote
  // predecessors (2 to 15), so it is charged once per task.
  uint64_t spawn_remote_ps() const override { return remote_; }
  uint64_t schedule_ps() const override { return schedule_; }
  // schedule_ns is a hand-off to another, idle worker (weft calibrate); a
  // successor the retiring worker runs next pays no hand-off, and its take
  // is in finish_base_ns (calibrate's finish batches run A's successors
  // that way).
  uint64_t local_schedule_ps() const override { return 0; }
  uint64_t finish_ps(uint32_t ndeps) const override {
    return finish_base_ + ndeps * finish_dep_;
  }
  uint64_t wait_ps() const override { return taskwait_; }

private:
  uint64_t spawn_base_, spawn_dep_, schedule_, finish_base_, finish_dep_,
      taskwait_, remote_;
};

} // namespace

// --param calibration=FILE; the caller sets the default path.
std::unique_ptr<model> make_sw_model(params &p) {
  std::string path = p.get_string("sw", "calibration", "");
  if (path.empty())
    throw error("model sw: no calibration file given (--param "
                "calibration=FILE; `weft calibrate` writes one)");
  return std::make_unique<sw_model>(path);
}

} // namespace weft::sim
