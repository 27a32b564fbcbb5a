// WEFT_TEST_SCALE (set by the CTest registration: 0.25 under sanitizers)
// scales the unit tests' stress rounds, and WEFT_TEST_WAIT_SECONDS (20 s)
// bounds their waits for what a correct runtime makes happen soon: read
// once, by tests/core/test_util.hpp, for every test binary.
#pragma once

#include "../core/test_util.hpp"

namespace weft {

inline double test_scale() { return wt::test_scale(); }

} // namespace weft
