#include "model.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace weft::sim {

uint64_t cycles_ps(uint64_t cycles, double mhz) {
  return static_cast<uint64_t>(static_cast<double>(cycles) * 1e6 / mhz + 0.5);
}

params::params(const std::vector<std::string> &kv) {
  for (const std::string &s : kv) {
    std::size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw error("--param " + s + ": expected key=value");
    set(s.substr(0, eq), s.substr(eq + 1));
  }
}

void params::set(const std::string &key, const std::string &value) {
  values_[key] = value;
}

bool params::has(const std::string &key) const {
  return values_.count(key) != 0;
}

uint64_t params::get_uint(const char *who, const std::string &key,
                          uint64_t fallback, uint64_t lo, uint64_t hi) {
  known_.insert(key);
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  read_.insert(key);
  const std::string &s = it->second;
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || s[0] == '-' || errno != 0 || *end != '\0' || v < lo ||
      v > hi)
    throw error("--param " + key + "=" + s + ": expected an integer in [" +
                std::to_string(lo) + ", " + std::to_string(hi) + "] (model " +
                who + ")");
  return v;
}

double params::get_double(const char *who, const std::string &key,
                          double fallback, double lo, double hi) {
  known_.insert(key);
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  read_.insert(key);
  const std::string &s = it->second;
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || errno != 0 || *end != '\0' || !std::isfinite(v) ||
      !(v > lo) || v > hi)
    throw error("--param " + key + "=" + s + ": expected a number in (" +
                std::to_string(lo) + ", " + std::to_string(hi) + "] (model " +
                who + ")");
  return v;
}

std::string params::get_string(const char *, const std::string &key,
                               const std::string &fallback) {
  known_.insert(key);
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  read_.insert(key);
  return it->second;
}

void params::check_all_used(const std::string &models) const {
  for (const auto &[key, value] : values_) {
    if (read_.count(key))
      continue;
    std::string known;
    for (const std::string &k : known_)
      known += (known.empty() ? "" : ", ") + k;
    throw error("--param " + key + "=" + value +
                ": unknown parameter for model(s) " + models +
                " (known: " + (known.empty() ? "none" : known) + ")");
  }
}

const std::vector<std::string> &model_names() {
  static const std::vector<std::string> names = {"ideal", "nexus", "nexus+rt",
                                                 "picos", "sw",    "myrmics"};
  return names;
}

std::unique_ptr<model> make_model(const std::string &name, params &p) {
  if (name == "ideal")
    return make_ideal_model(p);
  if (name == "nexus")
    return make_nexus_model(p);
  if (name == "nexus+rt")
    return make_nexus_rt_model(p);
  if (name == "picos")
    return make_picos_model(p);
  if (name == "sw")
    return make_sw_model(p);
  if (name == "myrmics")
    throw error("--model myrmics: a scheduler tree, replayed by "
                "simulate_myrmics (myrmics.hpp), not a model of simulate()");
  std::string all;
  for (const std::string &n : model_names())
    all += (all.empty() ? "" : ", ") + n;
  throw error("--model " + name + ": unknown model (models: " + all + ")");
}

} // namespace weft::sim
