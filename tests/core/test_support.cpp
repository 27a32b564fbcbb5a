// Linked into every test binary: starts the runtime before the first test
// (weft_init(0): the thread count comes from WEFT_NUM_THREADS, which the CTest
// registration sets) and stops it after the last one.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

class WeftRuntime : public ::testing::Environment {
public:
  void SetUp() override {
    int rc = weft_init(0);
    ASSERT_EQ(rc, WEFT_OK) << "weft_init(0): " << weft_last_error();
    std::fprintf(stderr,
                 "[weft-test] engine=%s threads=%d (WEFT_NUM_THREADS=%s) "
                 "scale=%g\n",
                 wt::engine_name(), weft_num_threads(),
                 std::getenv("WEFT_NUM_THREADS")
                     ? std::getenv("WEFT_NUM_THREADS")
                     : "unset",
                 wt::test_scale());
  }
  void TearDown() override { (void)weft_shutdown(); }
};

[[maybe_unused]] ::testing::Environment *const env =
    ::testing::AddGlobalTestEnvironment(new WeftRuntime);

} // namespace
