// White-box tests of the environment reader: the exact syntax of integers,
// numbers, flags and lists, the ranges, and error messages that name the
// variable and its value.
#include "base/env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>

namespace weft::env {
namespace {

std::map<std::string, std::string> g_table;
const char *table(const char *name) {
  auto it = g_table.find(name);
  return it == g_table.end() ? nullptr : it->second.c_str();
}

TEST(EnvParse, IntegersAreDigitsOrHexAndNothingElse) {
  uint64_t v = 0;
  EXPECT_TRUE(parse_uint("0", 0, 10, v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(parse_uint("42", 0, 100, v));
  EXPECT_EQ(v, 42u);
  EXPECT_TRUE(parse_uint("0x2A", 0, 100, v));
  EXPECT_EQ(v, 42u);
  EXPECT_TRUE(parse_uint("18446744073709551615", 0, UINT64_MAX, v));
  EXPECT_EQ(v, UINT64_MAX);
  for (const char *bad : {"", " 4", "4 ", "+4", "-4", "4x", "0x", "x4", "1e3",
                          "4.0", "sixty", "18446744073709551616", "0x1g"}) {
    v = 7;
    EXPECT_FALSE(parse_uint(bad, 0, UINT64_MAX, v)) << '"' << bad << '"';
    EXPECT_EQ(v, 7u) << "a rejected value leaves the output alone";
  }
}

TEST(EnvParse, IntegerRangesAreInclusive) {
  uint64_t v;
  EXPECT_TRUE(parse_uint("1", 1, 4, v));
  EXPECT_TRUE(parse_uint("4", 1, 4, v));
  EXPECT_FALSE(parse_uint("0", 1, 4, v));
  EXPECT_FALSE(parse_uint("5", 1, 4, v));
}

TEST(EnvParse, NumbersAreFiniteAndInRange) {
  double v = 0;
  EXPECT_TRUE(parse_number("12.5", 0, 100, true, v));
  EXPECT_DOUBLE_EQ(v, 12.5);
  EXPECT_TRUE(parse_number("1e2", 0, 100, true, v));
  EXPECT_DOUBLE_EQ(v, 100);
  EXPECT_TRUE(parse_number("0", 0, 1, false, v)) << "closed low end";
  EXPECT_FALSE(parse_number("0", 0, 1, true, v)) << "open low end";
  for (const char *bad : {"", "fast", "1.5x", "nan", "inf", "101", "-1", " "})
    EXPECT_FALSE(parse_number(bad, 0, 100, true, v)) << '"' << bad << '"';
}

TEST(EnvParse, Flags) {
  bool v;
  for (const char *yes : {"1", "true", "TRUE", "Yes", "on"}) {
    v = false;
    EXPECT_TRUE(parse_flag(yes, v) && v) << yes;
  }
  for (const char *no : {"0", "false", "No", "OFF"}) {
    v = true;
    EXPECT_TRUE(parse_flag(no, v) && !v) << no;
  }
  for (const char *bad : {"", "2", "y", "truth", " on"})
    EXPECT_FALSE(parse_flag(bad, v)) << '"' << bad << '"';
}

TEST(EnvParse, ListsSplitOnCommasAndSpaces) {
  auto l = split_list("waits, stats,,x  y");
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(l[0], "waits");
  EXPECT_EQ(l[1], "stats");
  EXPECT_EQ(l[2], "x");
  EXPECT_EQ(l[3], "y");
  EXPECT_TRUE(split_list("").empty());
  EXPECT_TRUE(split_list(" , ").empty());
}

TEST(EnvReader, UnsetLeavesTheDefault) {
  g_table = {};
  reader r(table);
  uint32_t n = 5;
  double d = 2.5;
  bool f = true;
  int c = 1;
  std::vector<std::string> l{"kept"};
  static const char *const modes[] = {"a", "b"};
  EXPECT_FALSE(r.integer("N", 0, 10, n));
  EXPECT_FALSE(r.number("D", 0, 10, true, d));
  EXPECT_FALSE(r.flag("F", f));
  EXPECT_FALSE(r.choice("C", modes, 2, c));
  EXPECT_FALSE(r.list("L", l));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(n, 5u);
  EXPECT_DOUBLE_EQ(d, 2.5);
  EXPECT_TRUE(f);
  EXPECT_EQ(c, 1);
  EXPECT_EQ(l.size(), 1u);
}

TEST(EnvReader, ValuesAreRead) {
  g_table = {
      {"N", "0x10"}, {"D", "0.5"}, {"F", "off"}, {"C", "b"}, {"L", "x,y"}};
  reader r(table);
  uint32_t n = 0;
  double d = 0;
  bool f = true;
  int c = 0;
  std::vector<std::string> l;
  static const char *const modes[] = {"a", "b"};
  EXPECT_TRUE(r.integer("N", 0, 100, n));
  EXPECT_TRUE(r.number("D", 0, 1, true, d));
  EXPECT_TRUE(r.flag("F", f));
  EXPECT_TRUE(r.choice("C", modes, 2, c));
  EXPECT_TRUE(r.list("L", l));
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(n, 16u);
  EXPECT_DOUBLE_EQ(d, 0.5);
  EXPECT_FALSE(f);
  EXPECT_EQ(c, 1);
  EXPECT_EQ(l, (std::vector<std::string>{"x", "y"}));
}

// The message names the variable, its value, what was expected and the
// range; the first error is kept, later reads still happen.
TEST(EnvReader, ErrorsNameTheVariableAndValue) {
  g_table = {{"WEFT_X", "65"}, {"WEFT_Y", "fast"}};
  reader r(table, " (unit test)");
  uint32_t x = 1;
  double y = 1;
  EXPECT_FALSE(r.integer("WEFT_X", 1, 64, x, "a way count"));
  EXPECT_EQ(x, 1u);
  EXPECT_FALSE(r.number("WEFT_Y", 0, 10, true, y));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "WEFT_X=65: not a way count in [1, 64] (unit test)");

  reader r2(table);
  EXPECT_FALSE(r2.number("WEFT_Y", 0, 10, true, y, "a clock in MHz"));
  EXPECT_EQ(r2.error(), "WEFT_Y=fast: not a clock in MHz in (0, 10]");

  g_table = {{"MODE", "hardware"}, {"FLAG", "maybe"}, {"EMPTY", ""}};
  static const char *const modes[] = {"inline", "thread", "hybrid"};
  int m;
  reader r3(table);
  EXPECT_FALSE(r3.choice("MODE", modes, 3, m));
  EXPECT_EQ(r3.error(), "MODE=hardware: expected inline, thread or hybrid");
  reader r4(table);
  bool f;
  EXPECT_FALSE(r4.flag("FLAG", f));
  EXPECT_NE(r4.error().find("FLAG=maybe: not a flag"), std::string::npos)
      << r4.error();
  // A lookup that returns an empty string (a test table, not the process
  // environment) gives an empty value, which is not a number.
  reader r5(table);
  uint32_t e = 3;
  EXPECT_FALSE(r5.integer("EMPTY", 0, 10, e));
  EXPECT_EQ(r5.error(), "EMPTY=: not an integer in [0, 10]");
}

TEST(EnvProcess, EmptyIsUnsetExceptForRaw) {
  setenv("WEFT_ENV_TEST_EMPTY", "", 1);
  setenv("WEFT_ENV_TEST_SET", "3", 1);
  unsetenv("WEFT_ENV_TEST_UNSET");
  EXPECT_EQ(get("WEFT_ENV_TEST_EMPTY"), nullptr);
  ASSERT_NE(raw("WEFT_ENV_TEST_EMPTY"), nullptr);
  EXPECT_STREQ(raw("WEFT_ENV_TEST_EMPTY"), "");
  EXPECT_STREQ(get("WEFT_ENV_TEST_SET"), "3");
  EXPECT_EQ(get("WEFT_ENV_TEST_UNSET"), nullptr);
  EXPECT_EQ(raw("WEFT_ENV_TEST_UNSET"), nullptr);

  reader r; // the process environment
  int n = 0;
  EXPECT_TRUE(r.integer("WEFT_ENV_TEST_SET", 1, 4, n));
  EXPECT_EQ(n, 3);
  EXPECT_FALSE(r.integer("WEFT_ENV_TEST_EMPTY", 1, 4, n));
  EXPECT_TRUE(r.ok()) << "empty in the process environment is unset";
  unsetenv("WEFT_ENV_TEST_EMPTY");
  unsetenv("WEFT_ENV_TEST_SET");
}

TEST(EnvProcess, ListHasAndPrefix) {
  setenv("WEFT_ENV_TEST_LIST", "stats, waits", 1);
  EXPECT_TRUE(list_has("WEFT_ENV_TEST_LIST", "waits"));
  EXPECT_TRUE(list_has("WEFT_ENV_TEST_LIST", "stats"));
  EXPECT_FALSE(list_has("WEFT_ENV_TEST_LIST", "wait"));
  EXPECT_FALSE(list_has("WEFT_ENV_TEST_NONE", "waits"));
  setenv("WEFT_ENV_TEST_PFX_A", "1", 1);
  setenv("WEFT_ENV_TEST_PFX_B", "2", 1);
  auto found = with_prefix("WEFT_ENV_TEST_PFX_");
  ASSERT_EQ(found.size(), 2u);
  std::set<std::string> names(found.begin(), found.end());
  EXPECT_TRUE(names.count("WEFT_ENV_TEST_PFX_A=1"));
  EXPECT_TRUE(names.count("WEFT_ENV_TEST_PFX_B=2"));
  unsetenv("WEFT_ENV_TEST_LIST");
  unsetenv("WEFT_ENV_TEST_PFX_A");
  unsetenv("WEFT_ENV_TEST_PFX_B");
}

// A family's misspelt variable is named with its value and the known names.
TEST(EnvProcess, UnknownInFamily) {
  static const char *const known[] = {"POOL", "SETS", "MODE"};
  setenv("WEFT_ENVFAM_POOL", "4", 1);
  EXPECT_EQ(unknown_in_family("WEFT_ENVFAM_", known, 3, "the test"), "");
  setenv("WEFT_ENVFAM_POOLS", "8", 1);
  EXPECT_EQ(unknown_in_family("WEFT_ENVFAM_", known, 3, "the test"),
            "WEFT_ENVFAM_POOLS=8: unknown variable (the test reads "
            "WEFT_ENVFAM_POOL, _SETS and _MODE)");
  unsetenv("WEFT_ENVFAM_POOLS");
  setenv("WEFT_ENVFAM_", "x", 1); // the bare prefix is no known name either
  EXPECT_NE(unknown_in_family("WEFT_ENVFAM_", known, 3, "the test"), "");
  unsetenv("WEFT_ENVFAM_");
  unsetenv("WEFT_ENVFAM_POOL");
}

} // namespace
} // namespace weft::env
