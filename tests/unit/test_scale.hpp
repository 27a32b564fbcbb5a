// WEFT_TEST_SCALE (set by the CTest registration: 0.25 under sanitizers)
// scales the unit tests' stress rounds.
#pragma once

#include <cstdlib>

namespace weft {

inline double test_scale() {
  const char *s = std::getenv("WEFT_TEST_SCALE");
  return s ? std::atof(s) : 1.0;
}

} // namespace weft
