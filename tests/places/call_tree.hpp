// A random tree of nested calls, shared by tests/places (places in one
// process) and tests/dist (ranks): the call for `seed` runs on place
// seed % num_places() and makes 0-3 nested calls (at or async_at, to any
// place, the caller's included) whose values it combines with its own;
// tree_value computes the same without a call (the serial meaning).
#pragma once

#include "graph_util.hpp"

#include <weft/places.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace pt {

struct tree_call {
  std::uint64_t seed;
  int depth;
  std::uint64_t operator()(leaf *) const {
    const int np = weft::num_places();
    std::mt19937_64 rng(seed);
    std::uint64_t v = seed % 1000 + 1000 * std::uint64_t(weft::here().id);
    int kids = depth > 0 ? int(rng() % 4) : 0;
    std::vector<weft::future<std::uint64_t>> later;
    for (int k = 0; k < kids; ++k) {
      std::uint64_t s = rng();
      weft::place to{int(s % std::uint64_t(np))};
      tree_call c{s, depth - 1};
      if (rng() & 1)
        later.push_back(weft::async_at(to, static_cast<leaf *>(nullptr), c));
      else
        v = v * 31 + weft::at(to, static_cast<leaf *>(nullptr), c);
    }
    for (auto &f : later)
      v = v * 37 + f.get();
    return v;
  }
};

inline std::uint64_t tree_value(std::uint64_t seed, int depth, int np) {
  std::mt19937_64 rng(seed);
  std::uint64_t v = seed % 1000 + 1000 * (seed % std::uint64_t(np));
  int kids = depth > 0 ? int(rng() % 4) : 0;
  std::vector<std::uint64_t> later;
  for (int k = 0; k < kids; ++k) {
    std::uint64_t s = rng();
    if (rng() & 1)
      later.push_back(tree_value(s, depth - 1, np));
    else
      v = v * 31 + tree_value(s, depth - 1, np);
  }
  for (std::uint64_t x : later)
    v = v * 37 + x;
  return v;
}

} // namespace pt
