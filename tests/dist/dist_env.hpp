// What run_mpi.py tells a dist test through the environment: the world size
// it launched (WEFT_TEST_RANKS), the stress scale (WEFT_TEST_SCALE: 0.25
// under sanitizers) and the seed of a randomised test (WEFT_TEST_SEED, drawn
// per run and printed by run_mpi.py).
#pragma once

#include <cstdint>
#include <cstdlib>

namespace dist_test {

// The world size run_mpi.py launched; -1 when run outside it.
inline int expected_world() {
  const char *s = std::getenv("WEFT_TEST_RANKS");
  return s ? std::atoi(s) : -1;
}

inline double scale() {
  const char *s = std::getenv("WEFT_TEST_SCALE");
  return s ? std::atof(s) : 1.0;
}

// WEFT_TEST_SEED, or a fixed seed when run outside run_mpi.py.
inline std::uint64_t seed() {
  const char *s = std::getenv("WEFT_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261127;
}

} // namespace dist_test
