// What run_mpi.py tells a dist test through the environment: the world size
// it launched (WEFT_TEST_RANKS), the stress scale (WEFT_TEST_SCALE: 0.25
// under sanitizers) and the seed of a randomised test (WEFT_TEST_SEED, drawn
// per run and printed by run_mpi.py).
#pragma once

#include <weft/places.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
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

// Between places_mpi_init and places_mpi_finalize: rank 0 runs the tests
// (they call the other ranks); every other rank serves calls until finalize
// and checks the world size. This rank's exit code.
inline int run_tests_on_rank0() {
  if (weft::here().id == 0)
    return RUN_ALL_TESTS();
  if (weft::num_places() != expected_world()) {
    std::fprintf(stderr, "rank %d: world size %d, expected %d\n",
                 weft::here().id, weft::num_places(), expected_world());
    return 1;
  }
  return 0;
}

} // namespace dist_test
