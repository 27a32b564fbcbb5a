// `weft sim` on the command line: its CSV for a small trace, and an error
// naming the value for each kind of bad input.
#include "run_command.hpp"
#include "trace_builder.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using weft::trace_test::trace_builder;
namespace wt = weft::trace;

namespace {

using outcome = weft::trace_test::command_result;

// Runs `weft sim args` after `prefix` (e.g. "cd DIR && ").
outcome weft_sim(const std::string &args, const std::string &prefix = "") {
  return weft::trace_test::run_command(prefix + WEFT_CLI + " sim " + args);
}

class SimCli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::string(::testing::TempDir()) + "weft_sim_cli_" +
           std::to_string(getpid());
    std::filesystem::create_directories(dir_);
    // Root creates two independent tasks of 100 ns and waits.
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 0, 2, 1);
    b.create(0, 0, 3, 1);
    b.run(1, 10, 110, 2);
    b.run(2, 10, 110, 3);
    b.wait_begin(0, 0, 1, wt::wait_kind::taskwait);
    b.wait_end(0, 120, 1, wt::wait_kind::taskwait);
    b.end(0, 120, 1);
    trace_ = b.write();
  }
  void TearDown() override {
    std::remove(trace_.c_str());
    std::filesystem::remove_all(dir_);
  }
  std::string dir_, trace_;
};

} // namespace

TEST_F(SimCli, WritesTheCsv) {
  outcome o =
      weft_sim(trace_ + " --model ideal,nexus --cores 1,2 --out " + dir_);
  std::string stem = std::filesystem::path(trace_).stem().string();
  std::string csv = dir_ + "/sim-" + stem + ".csv";
  EXPECT_NE(o.output.find(csv), std::string::npos) << o.output;
  std::ifstream f(csv);
  ASSERT_TRUE(f) << o.output;
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "model,cores,makespan_ns,speedup,utilisation");
  // ideal: 200 ns on 1 core, 100 on 2 (speedup 2, both cores busy).
  EXPECT_NE(text.find("ideal,1,200.000,1.000000,1.000000\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("ideal,2,100.000,2.000000,1.000000\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("nexus,2,"), std::string::npos) << text;
  // The plot needs matplotlib; without it, the failure says so.
  if (o.status == 0)
    EXPECT_TRUE(std::filesystem::exists(dir_ + "/sim-" + stem + ".png"));
  else
    EXPECT_NE(o.output.find("matplotlib"), std::string::npos) << o.output;
}

// The myrmics model (its own replay) writes its rows beside the others'.
TEST_F(SimCli, MyrmicsModel) {
  outcome o = weft_sim(trace_ +
                       " --model ideal,myrmics --param schedulers=1x2 "
                       "--cores 2,4 --out " +
                       dir_);
  std::string stem = std::filesystem::path(trace_).stem().string();
  std::ifstream f(dir_ + "/sim-" + stem + ".csv");
  ASSERT_TRUE(f) << o.output;
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find("\nmyrmics,2,"), std::string::npos) << ss.str();
  EXPECT_NE(ss.str().find("\nmyrmics,4,"), std::string::npos) << ss.str();
}

// Without -o the outputs go to the current folder, and their paths are
// printed; the sw model looks for calibration.json there.
TEST_F(SimCli, WritesIntoTheCurrentFolderByDefault) {
  std::string cwd = dir_ + "/cwd";
  std::filesystem::create_directories(cwd);
  outcome o = weft_sim(trace_ + " --cores 1,2", "cd " + cwd + " && ");
  std::string stem = std::filesystem::path(trace_).stem().string();
  EXPECT_NE(o.output.find("./sim-" + stem + ".csv"), std::string::npos)
      << o.output;
  EXPECT_TRUE(std::filesystem::exists(cwd + "/sim-" + stem + ".csv"))
      << o.output;
  o = weft_sim(trace_ + " --model sw --cores 1", "cd " + cwd + " && ");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("calibration.json"), std::string::npos) << o.output;
}

TEST_F(SimCli, BadInputIsAnErrorNamingTheValue) {
  struct bad {
    std::string args, message;
  } cases[] = {
      {trace_ + " --model fpga", "--model fpga: unknown model"},
      {trace_ + " --param pool=4", "--param pool=4: unknown parameter"},
      {trace_ + " --model nexus --param pool=x", "--param pool=x: expected"},
      {trace_ + " --cores 1,x", "--cores 1,x: 'x' is not a core count"},
      {trace_ + " --cores 0", "'0' is not a core count"},
      {trace_ + " --cores 4,2", "counts must increase"},
      {trace_ + " --model sw --param calibration=" + dir_ + "/none.json",
       "run `weft calibrate`"},
      {trace_ + " --model myrmics --param schedulers=2x4",
       "--param schedulers=2x4"},
      {trace_ + " --model myrmics --param schedulers=1x4 --cores 2",
       "2 workers for 4 leaf schedulers"},
      {dir_ + "/missing.wtr", "cannot open " + dir_ + "/missing.wtr"},
  };
  for (const bad &c : cases) {
    outcome o = weft_sim(c.args + " --out " + dir_);
    EXPECT_EQ(o.status, 2) << c.args << "\n" << o.output;
    EXPECT_NE(o.output.find("weft sim: "), std::string::npos) << o.output;
    EXPECT_NE(o.output.find(c.message), std::string::npos) << c.args << "\n"
                                                           << o.output;
  }
}

namespace {
// A root that creates two tasks and waits; task 2 works a2 ns, task 3 a3
// ns.
std::string two_tasks(uint64_t a2, uint64_t a3) {
  trace_builder b;
  b.root(0, 1, 0);
  b.create(0, 0, 2, 1);
  b.create(0, 0, 3, 1);
  b.run(1, 10, 10 + a2, 2);
  b.run(2, 10, 10 + a3, 3);
  b.wait_begin(0, 0, 1, wt::wait_kind::taskwait);
  b.wait_end(0, 20 + a2 + a3, 1, wt::wait_kind::taskwait);
  b.end(0, 20 + a2 + a3, 1);
  return b.write();
}

std::string csv_of(const std::string &dir, const std::string &trace) {
  std::ifstream f(dir + "/sim-" + std::filesystem::path(trace).stem().string() +
                  ".csv");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
} // namespace

// --min-over: each stretch of work at its minimum over the recordings
// (task 2: min(100, 300), task 3: min(500, 200)).
TEST_F(SimCli, MinOverTakesEachWorkStepsMinimum) {
  std::string a = two_tasks(100, 500), b = two_tasks(300, 200);
  outcome o =
      weft_sim(a + " --min-over " + b + " --cores 1 --no-plot --out " + dir_);
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(csv_of(dir_, a).find("ideal,1,300.000,"), std::string::npos)
      << csv_of(dir_, a);
  // A recording of another graph is refused, naming it.
  trace_builder c;
  c.root(0, 1, 0);
  c.end(0, 5, 1);
  std::string other = c.write();
  o = weft_sim(a + " --min-over " + other + " --no-plot --out " + dir_);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("--min-over " + other +
                          ": not a recording of the same task graph as " + a +
                          ": 1 tasks against 3"),
            std::string::npos)
      << o.output;
  for (const std::string &p : {a, b, other})
    std::remove(p.c_str());
}

// --phase: an unknown phase is an error naming it.
TEST_F(SimCli, UnknownPhaseIsAnError) {
  outcome o = weft_sim(trace_ + " --phase timed --no-plot --out " + dir_);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("no phase 'timed' in the trace"), std::string::npos)
      << o.output;
}

// A trace whose segments overlap on one thread (a spawn segment and the
// body of a task run in place inside it) is refused before any replay,
// naming the file, the thread, both tasks and their times; the same for a
// --min-over recording.
TEST_F(SimCli, OverlappingSegmentsAreAnErrorNamingTheFile) {
  std::string bad = weft::trace_test::spawn_overlapping_a_body().write();
  const std::string what =
      "weft sim: trace " + bad + ": " + weft::trace_test::kSpawnOverlapsABody;
  outcome o =
      weft_sim(bad + " --model nexus --param pool=4 --no-plot --out " + dir_);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(what + "\n"), std::string::npos) << o.output;
  std::string stem = std::filesystem::path(bad).stem().string();
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/sim-" + stem + ".csv"));
  o = weft_sim(trace_ + " --min-over " + bad + " --no-plot --out " + dir_);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(what + "\n"), std::string::npos) << o.output;
  std::remove(bad.c_str());
}
