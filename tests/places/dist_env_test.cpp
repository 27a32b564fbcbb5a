// The environment of the places across ranks (detail::read_dist_env, which
// places_mpi_init reads before it starts MPI): WEFT_PLACE_BYTES,
// WEFT_DIST_FUNNELED and WEFT_DIST_TIMEOUT go through weft's one reader, and
// a bad value is an error naming the call, the variable and its text.
#include "places/dist_seam.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

namespace {

std::map<std::string, std::string> g_table;
const char *table(const char *name) {
  auto it = g_table.find(name);
  return it == g_table.end() ? nullptr : it->second.c_str();
}

using weft::detail::dist_env;
using weft::detail::read_dist_env;

std::string error_of(const char *name, const char *value) {
  g_table = {{name, value}};
  try {
    (void)read_dist_env(table);
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
  return "";
}

TEST(DistEnv, UnsetMeansDefaults) {
  g_table.clear();
  dist_env e = read_dist_env(table);
  EXPECT_EQ(e.place_bytes, 0u);
  EXPECT_FALSE(e.funneled);
  EXPECT_EQ(e.timeout_s, 6.0);
  EXPECT_EQ(e.finalize_timeout_s, 60.0);
}

TEST(DistEnv, GoodValuesAreRead) {
  g_table = {{"WEFT_PLACE_BYTES", "0x1000000"},
             {"WEFT_DIST_FUNNELED", "yes"},
             {"WEFT_DIST_TIMEOUT", "2.5"},
             {"WEFT_DIST_FINALIZE_TIMEOUT", "0.5"}};
  dist_env e = read_dist_env(table);
  EXPECT_EQ(e.finalize_timeout_s, 0.5);
  EXPECT_EQ(e.place_bytes, std::size_t(16) << 20);
  EXPECT_TRUE(e.funneled);
  EXPECT_EQ(e.timeout_s, 2.5);
  g_table = {{"WEFT_PLACE_BYTES", "1048576"}, {"WEFT_DIST_FUNNELED", "0"}};
  e = read_dist_env(table);
  EXPECT_EQ(e.place_bytes, std::size_t(1) << 20);
  EXPECT_FALSE(e.funneled);
}

TEST(DistEnv, BadValuesNameTheCallTheVariableAndTheValue) {
  struct bad {
    const char *name, *value;
  };
  for (bad b : {bad{"WEFT_PLACE_BYTES", "64Mi"}, bad{"WEFT_PLACE_BYTES", "-1"},
                bad{"WEFT_PLACE_BYTES", "1048575"},
                bad{"WEFT_PLACE_BYTES", "1099511627777"},
                bad{"WEFT_PLACE_BYTES", " 4194304"},
                bad{"WEFT_DIST_FUNNELED", "2"}, bad{"WEFT_DIST_TIMEOUT", "0.4"},
                bad{"WEFT_DIST_TIMEOUT", "6s"}, bad{"WEFT_DIST_TIMEOUT", "nan"},
                bad{"WEFT_DIST_FINALIZE_TIMEOUT", "0.4"},
                bad{"WEFT_DIST_FINALIZE_TIMEOUT", "86401"},
                bad{"WEFT_DIST_FINALIZE_TIMEOUT", "2s"}}) {
    std::string e = error_of(b.name, b.value);
    std::string want = std::string(b.name) + "=" + b.value + ": not ";
    EXPECT_NE(e.find("weft::places_mpi_init: "), std::string::npos) << e;
    EXPECT_NE(e.find(want), std::string::npos)
        << "expected \"" << want << "\" in \"" << e << "\"";
  }
}

} // namespace
