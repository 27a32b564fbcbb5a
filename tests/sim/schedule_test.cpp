// The simulator against schedules computed by hand: each test's comment
// gives the schedule and the makespan it expects. Times in ns.
#include "simulator.hpp"

#include "trace/read/trace_graph.hpp"
#include "trace_builder.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace wt = weft::trace;
namespace ws = weft::sim;
using weft::trace_test::trace_builder;
using wt::dep_mode;

namespace {

// Makespan in ns of the trace on `cores` cores under model `name`.
double makespan(trace_builder &b, const std::string &name, uint32_t cores,
                const std::vector<std::string> &kv = {}) {
  wt::task_graph g = wt::build_graph(b.data());
  ws::params p(kv);
  std::unique_ptr<ws::model> m = ws::make_model(name, p);
  p.check_all_used(name);
  return ws::simulate(g, *m, cores).makespan_ps / 1e3;
}

// Root task 1 on thread 0 creates the children at the given times (ns),
// each run on its own thread for its work, then waits (taskwait) and ends.
struct child {
  uint64_t id, created, work;
  trace_builder::deps deps;
};

trace_builder fork_join(const std::vector<child> &cs, uint64_t wait_at,
                        uint64_t wait_end, uint64_t end_at) {
  trace_builder b;
  b.root(0, 1, 0);
  uint16_t th = 1;
  for (const child &c : cs) {
    b.create(0, c.created, c.id, 1, c.deps);
    b.run(th++, wait_end + 10, wait_end + 10 + c.work, c.id);
  }
  b.wait_begin(0, wait_at, 1, wt::wait_kind::taskwait);
  b.wait_end(0, wait_end, 1, wt::wait_kind::taskwait);
  b.end(0, end_at, 1);
  return b;
}

} // namespace

// Root creates 4 tasks of 100 at time 0 and waits.
// 1 core: 100 each in turn = 400. 2 cores: two rounds = 200.
// 3 cores: A, B, C in 0..100, D in 100..200 = 200.
TEST(SimSchedule, IndependentTasks) {
  auto b = fork_join(
      {{2, 0, 100, {}}, {3, 0, 100, {}}, {4, 0, 100, {}}, {5, 0, 100, {}}}, 0,
      1000, 1000);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 1), 400);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 2), 200);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 3), 200);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 4), 100);
}

// A (out x, 100) -> B (inout x, 200) -> C (in x, 300): 600 on any count.
TEST(SimSchedule, Chain) {
  const uint64_t x = 0x10;
  auto b = fork_join({{2, 0, 100, {{x, dep_mode::out}}},
                      {3, 0, 200, {{x, dep_mode::inout}}},
                      {4, 0, 300, {{x, dep_mode::in}}}},
                     0, 1000, 1000);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 1), 600);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 3), 600);
}

// A (out x, 100); B (in x, out y, 200); C (in x, out z, 300); D (in y, in z,
// 50). 2 cores: A 0..100, B 100..300, C 100..400, D 400..450 = 450.
// 1 core: the sum, 650.
TEST(SimSchedule, Diamond) {
  const uint64_t x = 0x10, y = 0x20, z = 0x30;
  auto b = fork_join({{2, 0, 100, {{x, dep_mode::out}}},
                      {3, 0, 200, {{x, dep_mode::in}, {y, dep_mode::out}}},
                      {4, 0, 300, {{x, dep_mode::in}, {z, dep_mode::out}}},
                      {5, 0, 50, {{y, dep_mode::in}, {z, dep_mode::in}}}},
                     0, 1000, 1000);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 2), 450);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 1), 650);
}

// Root: work 100, create A (500), work 100, create B (500), work 50, wait.
// 2 cores: A on core 1 at 100..600; B queued at 200, root waits at 250,
// B on core 0 at 250..750; root resumes at 750 = 750.
// 1 core: root 0..250, A 250..750, B 750..1250 = 1250.
TEST(SimSchedule, CreatorWorkBetweenCreations) {
  auto b = fork_join({{2, 100, 500, {}}, {3, 200, 500, {}}}, 250, 2000, 2000);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 2), 750);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 1), 1250);
}

// Root creates A (out x, 1000) and B (out y, 100) at 0, taskwait on (in y),
// works 50, creates C (100), taskwait. 2 cores: A 0..1000, B 0..100; root
// resumes at 100 (only B waited for), works to 150, C 150..250; the final
// taskwait ends with A at 1000 = 1000. A plain taskwait in place of the
// taskwait on would give 1000 + 50 + 100 = 1150.
TEST(SimSchedule, TaskwaitOnWaitsOnlyForTheNamedChildren) {
  const uint64_t x = 0x10, y = 0x20;
  auto trace = [&](bool on) {
    trace_builder b;
    b.root(0, 1, 0);
    b.create(0, 0, 2, 1, {{x, dep_mode::out}});
    b.create(0, 0, 3, 1, {{y, dep_mode::out}});
    b.run(1, 1, 1001, 2);
    b.run(2, 1, 101, 3);
    if (on)
      b.wait_begin(0, 0, 1, wt::wait_kind::taskwait_on, {{y, dep_mode::in}});
    else
      b.wait_begin(0, 0, 1, wt::wait_kind::taskwait);
    b.wait_end(0, 2000, 1,
               on ? wt::wait_kind::taskwait_on : wt::wait_kind::taskwait);
    b.create(0, 2050, 4, 1);
    b.run(3, 2060, 2160, 4);
    b.wait_begin(0, 2050, 1, wt::wait_kind::taskwait);
    b.wait_end(0, 3000, 1, wt::wait_kind::taskwait);
    b.end(0, 3000, 1);
    return b;
  };
  auto on = trace(true);
  EXPECT_DOUBLE_EQ(makespan(on, "ideal", 2), 1000);
  auto all = trace(false);
  EXPECT_DOUBLE_EQ(makespan(all, "ideal", 2), 1150);
}

// A region of two implicit tasks. I1: work 100, creates E (500), barrier,
// work 10. I2: work 300, barrier, work 20. The barrier waits for E too.
// 3 cores: I1 0..100, E 100..600, I2 0..300; released at 600; I1 to 610,
// I2 to 620; the root's join ends at 620 = 620.
// 1 core: everything in turn, 100 + 300 + 500 + 10 + 20 = 930.
TEST(SimSchedule, BarrierWaitsForTheTeamAndItsTasks) {
  trace_builder b;
  b.root(0, 1, 0);
  b.root(1, 9, 0); // thread 1's placeholder root, not simulated
  b.region_begin(0, 0, 1, 2);
  b.create(0, 0, 2, 1, {}, wt::flag_implicit);
  b.create(0, 0, 3, 1, {}, wt::flag_implicit);
  b.begin(0, 0, 2);
  b.begin(1, 0, 3);
  b.create(0, 100, 4, 2);
  b.run(2, 100, 600, 4);
  b.wait_begin(0, 100, 2, wt::wait_kind::barrier);
  b.wait_begin(1, 300, 3, wt::wait_kind::barrier);
  b.wait_end(0, 600, 2, wt::wait_kind::barrier);
  b.wait_end(1, 600, 3, wt::wait_kind::barrier);
  b.end(0, 610, 2);
  b.end(1, 620, 3);
  b.region_end(0, 620, 1);
  b.end(0, 620, 1);
  b.end(1, 700, 9);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 3), 620);
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 1), 930);
}

// nexus+rt, 1 core, default parameters (12.5 MHz: 80 ns a cycle). Root
// creates A (out x, out y; 1000) and B (in x; 500), then waits.
//  0: A submitted; insertion, 2 parameters, none waited for: 3 words + 1
//     pool write + 2 x 4 (lookup, entry write) + 1 ready word = 13 cycles,
//     0..1040. B submitted at 0; waits for A: 2 words + 1 pool write + 4 +
//     1 list slot + 1 count write = 9 cycles, 1040..1760. The root waits at
//     0 and frees the core.
//  A ready at 1040 + (2 + 1) x 250 + 400 = 2190; the runtime's 5000 per
//     task lengthens it (the paper's way): 2190..7190, body 7190..8190.
//  Finish latency 250 -> Nexus++ gets it at 8440; retirement: 1 word +
//     2 x 4 + 1 kicked x (1 slot + 2 decrement) + 1 ready word + 2 pool =
//     15 cycles, 8440..9640.
//  B ready at 9640 + (1 + 1) x 250 + 400 = 10540; 5000 more, body
//     15540..16040. The root resumes and ends at 16040.
TEST(SimSchedule, NexusRuntimeLatenciesAddUp) {
  const uint64_t x = 0x10, y = 0x20;
  auto b = fork_join({{2, 0, 1000, {{x, dep_mode::out}, {y, dep_mode::out}}},
                      {3, 0, 500, {{x, dep_mode::in}}}},
                     0, 2000, 2000);
  EXPECT_DOUBLE_EQ(makespan(b, "nexus+rt", 1), 16040);
  // Each latency is a parameter: without the runtime cost, A runs
  // 2190..3190; B is
  // inserted 1040..1760; A retired at 3440 + 1200 = 4640, B ready at 5540
  // and runs to 6040.
  EXPECT_DOUBLE_EQ(makespan(b, "nexus+rt", 1, {"runtime_ns=0"}), 6040);
}

// nexus, Task Pool of 1 entry, unit at 1000 MHz (1 ns a cycle), 2 cores.
// Root creates A (out a), B (out b), C (out c), 100 each, then waits; the
// unit at 1000 MHz (a cycle is 1 ns). Insertion of one parameter: 2 words +
// 1 pool write + lookup 3 + entry write 1 + a ready word = 8; retirement: 1
// word + 4 + 2 pool = 7.
//  pool=1: A inserted 0..8; B does not fit: the root stalls at 0. A runs
//  8..108, is retired 108..115 and frees its entry; the root resumes at
//  115, B inserted 115..123, the root stalls on C. B runs 123..223, retired
//  223..230; C inserted 230..238, the root waits; C runs 238..338.
//  Default pool: A, B, C inserted by 8, 16, 24; A runs 8..108, B 16..116,
//  C 108..208.
TEST(SimSchedule, FullNexusPoolStallsCreation) {
  auto b = fork_join({{2, 0, 100, {{0x10, dep_mode::out}}},
                      {3, 0, 100, {{0x20, dep_mode::out}}},
                      {4, 0, 100, {{0x30, dep_mode::out}}}},
                     0, 1000, 1000);
  EXPECT_DOUBLE_EQ(makespan(b, "nexus", 2, {"pool=1", "clock_mhz=1000"}), 338);
  EXPECT_DOUBLE_EQ(makespan(b, "nexus", 2, {"clock_mhz=1000"}), 208);
}

// Children without dependences that do not fit bypass the unit (nothing in
// it could order them): ready at once, holding no entry. pool=1: A (no
// dependences) inserted 0..3; B and C find the pool full and are ready at
// 0; the root waits at 0. B runs 0..100 on one core, C 0..100 on the
// other; A, ready at 3, runs 100..200.
TEST(SimSchedule, FullNexusPoolBypassesChildrenWithoutDependences) {
  auto b = fork_join({{2, 0, 100, {}}, {3, 0, 100, {}}, {4, 0, 100, {}}}, 0,
                     1000, 1000);
  wt::task_graph g = wt::build_graph(b.data());
  ws::params p({"pool=1", "clock_mhz=1000"});
  std::unique_ptr<ws::model> m = ws::make_model("nexus", p);
  ws::result r = ws::simulate(g, *m, 2);
  EXPECT_DOUBLE_EQ(r.makespan_ps / 1e3, 200);
  EXPECT_EQ(r.bypassed, 2u);
  EXPECT_EQ(r.serialized, 0u);
}

namespace {

// Root 1 creates task 2 (out 0x20) and waits; tasks 2 .. depth + 1 each
// begin, create the next task (out 0x10 x its id) `lead` ns later and wait
// for it; the last task works 100 ns. On one core.
trace_builder nested_creators(uint64_t depth, uint64_t lead) {
  trace_builder b;
  b.root(0, 1, 0);
  b.create(0, 0, 2, 1, {{0x20, dep_mode::out}});
  b.wait_begin(0, 0, 1, wt::wait_kind::taskwait);
  uint64_t t = 10;
  for (uint64_t k = 2; k <= depth + 1; ++k) {
    b.begin(0, t, k);
    b.create(0, t + lead, k + 1, k, {{0x10 * (k + 1), dep_mode::out}});
    b.wait_begin(0, t + lead + 10, k, wt::wait_kind::taskwait);
    t += lead + 20;
  }
  b.run(0, t, t + 100, depth + 2);
  t += 110;
  for (uint64_t k = depth + 1; k >= 1; --k) {
    b.wait_end(0, t, k, wt::wait_kind::taskwait);
    b.end(0, t, k);
    t += 10;
  }
  return b;
}

// The trace's replay on one core under nexus with a pool of one entry and
// picos with room for one task: every task completes, `serialized` of them
// run in place by their creators.
void replays_serializing(trace_builder &b, uint64_t tasks,
                         uint64_t serialized) {
  wt::task_graph g = wt::build_graph(b.data());
  for (const char *name : {"nexus", "picos"}) {
    ws::params p({name == std::string("nexus") ? "pool=1" : "task_memory=1"});
    std::unique_ptr<ws::model> m = ws::make_model(name, p);
    ws::result r;
    try {
      r = ws::simulate(g, *m, 1);
    } catch (const ws::error &e) {
      ADD_FAILURE() << name << ": " << e.what();
      continue;
    }
    EXPECT_EQ(r.tasks, tasks) << name;
    EXPECT_EQ(r.serialized, serialized) << name;
  }
}

} // namespace

// A recursion whose children have dependences, on one core with a pool of
// one entry: the root's child A (task 2) takes the entry, runs and creates
// its own child A1, which cannot fit while A holds the entry; A waits in
// taskwait for it. Nothing can make room, so A runs A1 in place
// (serialized), then ends.
TEST(SimSchedule, NestedChildWithDependencesIsSerializedWhenNothingMakesRoom) {
  trace_builder b = nested_creators(1, 10);
  replays_serializing(b, 3, 1);
}

// The same one level deeper, with tasks that create their child as they
// begin (no work before it): A1, run in place, stalls at once on its own
// child A2, with no event left to happen; the replay serializes again
// (it used to stop there and report a deadlock).
TEST(SimSchedule, SerializedChildThatStallsAtOnceIsSerializedInTurn) {
  trace_builder b = nested_creators(2, 0);
  replays_serializing(b, 4, 2);
}

// Writes a calibration file for the sw model: spawn 10 + 5/dep, schedule 7,
// finish 20 + 3/dep, taskwait 11, and `remote` per task with a predecessor
// run on another core; returns its path.
std::string write_calibration(const std::string &what, int remote) {
  std::string path = std::string(::testing::TempDir()) + "weft_sim_calib_" +
                     what + "_" + std::to_string(getpid()) + ".json";
  std::ofstream f(path);
  f << R"({"spawn_base_ns": 10, "spawn_per_dep_ns": 5, "schedule_ns": 7,
           "finish_base_ns": 20, "finish_per_dep_ns": 3, "taskwait_ns": 11,
           "spawn_remote_ns": )"
    << remote << "}";
  return path;
}

// The makespans under sw on `cores` cores with the remote charge 40 and
// without it (0), the other costs as write_calibration's.
std::pair<double, double> sw_remote_and_not(trace_builder &b, uint32_t cores) {
  std::string remote = write_calibration("remote", 40),
              none = write_calibration("none", 0);
  std::pair<double, double> out{
      makespan(b, "sw", cores, {"calibration=" + remote}),
      makespan(b, "sw", cores, {"calibration=" + none})};
  std::remove(remote.c_str());
  std::remove(none.c_str());
  return out;
}

// Root task 1 creates A (id 2, out x) and B (id 3, out y) at 0, waits from
// wait_at to wait_end, then creates C (id 4, in x, in y) and waits for it.
// Times (ns): A runs 10..110 (100 of work), B as `b_run` says (thread,
// from, to), C 50 of work.
struct run_at {
  uint16_t thread;
  uint64_t from, to;
};
trace_builder two_then_join(uint64_t wait_at, uint64_t wait_end, run_at b_run) {
  const uint64_t x = 0x10, y = 0x20;
  trace_builder b;
  b.root(0, 1, 0);
  b.create(0, 0, 2, 1, {{x, dep_mode::out}});
  b.create(0, 0, 3, 1, {{y, dep_mode::out}});
  b.wait_begin(0, wait_at, 1, wt::wait_kind::taskwait);
  b.run(1, 10, 110, 2);
  b.run(b_run.thread, b_run.from, b_run.to, 3);
  b.wait_end(0, wait_end, 1, wt::wait_kind::taskwait);
  b.create(0, wait_end, 4, 1, {{x, dep_mode::in}, {y, dep_mode::in}});
  b.wait_begin(0, wait_end, 1, wt::wait_kind::taskwait);
  b.run(1, wait_end + 10, wait_end + 60, 4);
  b.wait_end(0, wait_end + 100, 1, wt::wait_kind::taskwait);
  b.end(0, wait_end + 100, 1);
  return b;
}

// sw with a calibration file: spawn 10 + 5/dep, schedule 7, finish 20 +
// 3/dep, taskwait 11, remote 40. 2 cores; root creates A (out
// x, 100), B (in x, 50), then waits. The root (an implicit task) is neither
// scheduled nor finished. B's predecessor A is ready but not started when B
// is spawned (A starts once the root's spawn of B is under way): no remote
// charge.
//  A's spawn 0..15 (A ready; core 1: schedule to 22, body to 122, finish 23
//  -> complete at 145); B's spawn 15..30; taskwait cost 30..41, then it
//  waits. B ready at 145, made ready by A's completion on core 1, which is
//  idle: it starts there as an immediate successor, without the schedule
//  cost (a hand-off to another core, which A paid): body 145..195, finish
//  to 218. The root resumes and ends at 218 (225 if B paid the schedule).
TEST(SimSchedule, SwModelFromCalibrationFile) {
  std::string path = write_calibration("file", 40);
  const uint64_t x = 0x10;
  auto b = fork_join(
      {{2, 0, 100, {{x, dep_mode::out}}}, {3, 0, 50, {{x, dep_mode::in}}}}, 0,
      1000, 1000);
  EXPECT_DOUBLE_EQ(makespan(b, "sw", 2, {"calibration=" + path}), 218);
  std::remove(path.c_str());
  try {
    makespan(b, "sw", 2, {"calibration=" + path});
    ADD_FAILURE() << "a missing calibration file is an error";
  } catch (const ws::error &e) {
    EXPECT_NE(std::string(e.what()).find("run `weft calibrate`"),
              std::string::npos)
        << e.what();
  }
}

// sw's remote charge (40 here), 2 cores, a predecessor on each. Root: creates A
// (out x, 100) and B (out y, 200), waits, creates C (in x, in y, 50), waits.
//  A's spawn 0..15; A on core 1: schedule to 22, body to 122, finish 23 ->
//  complete 145. B's spawn 15..30 (no predecessor); taskwait 30..41, the
//  root suspends; B on core 0: schedule to 48, body to 248, finish to 271.
//  The root resumes on core 0 (the core freed last) at 271. C's spawn: 10
//  + 2 x 5 = 20, and A ran on core 1: + 40 -> 331 (B ran on core 0, the
//  creator's: no charge). C on core 1: schedule to 338, body to 388, finish
//  20 + 2 x 3 = 26 -> 414; the root's taskwait 331..342, it ends at 414.
//  Without the charge: 374. On 1 core every task runs on the creator's core:
//  A 41..171, B 171..401, C's spawn 401..421 without charge, taskwait to
//  432, C 432..515: 515 with or without it.
TEST(SimSchedule, SwChargesPredecessorsRunOnAnotherCore) {
  trace_builder b = two_then_join(0, 300, {2, 10, 210});
  EXPECT_EQ(sw_remote_and_not(b, 2), std::make_pair(414.0, 374.0));
  EXPECT_EQ(sw_remote_and_not(b, 1), std::make_pair(515.0, 515.0));
  // The other models charge nothing for it: ideal is the work's span.
  EXPECT_DOUBLE_EQ(makespan(b, "ideal", 2), 250);
}

// Two predecessors on the other core pay one charge, not two. 2 cores.
// Root: creates A (out x, 100) and B (out y, 100), works 500, waits (both
// done by then), creates C (in x, in y, 50), waits.
//  A's spawn 0..15; A on core 1: schedule to 22, body to 122, finish 23 ->
//  145. B's spawn 15..30, queued; the root works 30..530. B on core 1 at
//  145: schedule to 152, body to 252, finish to 275. The root's taskwait
//  530..541 (no child left); C's spawn 20 + 40 -> 601 (A and B both ran on
//  core 1: once). C on core 1: schedule to 608, body to 658, finish 26 ->
//  684; the root's taskwait 601..612, it ends at 684 (724 charged per
//  predecessor, 644 without the charge).
TEST(SimSchedule, SwChargesRemotePredecessorsOncePerTask) {
  trace_builder b = two_then_join(500, 500, {1, 120, 220});
  EXPECT_EQ(sw_remote_and_not(b, 2), std::make_pair(684.0, 644.0));
}

// A predecessor still running on another core is charged too. 2 cores;
// root creates A (out x, 60), works 50, creates C (in x, 50), waits.
//  A's spawn 0..15; A on core 1: schedule to 22, body to 82, finish to 105.
//  The root works 15..65, then spawns C while A runs on core 1: 15 + 40 ->
//  120; A retired at 105, so C is ready at 120 and starts on core 1 with a
//  hand-off: schedule to 127, body to 177, finish to 200 (the root's
//  taskwait 120..131). Makespan 200. Without the charge: C's spawn 65..80,
//  A's completion at 105 readies C on core 1, which runs it next without
//  the schedule cost: 105..155, finish to 178.
TEST(SimSchedule, SwChargesAPredecessorRunningOnAnotherCore) {
  const uint64_t x = 0x10;
  auto b = fork_join(
      {{2, 0, 60, {{x, dep_mode::out}}}, {3, 50, 50, {{x, dep_mode::in}}}}, 50,
      1000, 1000);
  EXPECT_EQ(sw_remote_and_not(b, 2), std::make_pair(200.0, 178.0));
}

// A calibration written before the remote cost existed: the error names the
// missing key and tells to re-run weft calibrate.
TEST(SimSchedule, SwCalibrationWithoutRemoteKeyIsAnError) {
  std::string path = std::string(::testing::TempDir()) + "weft_sim_calib_old_" +
                     std::to_string(getpid()) + ".json";
  {
    std::ofstream f(path);
    f << R"({"spawn_base_ns": 10, "spawn_per_dep_ns": 5, "schedule_ns": 7,
             "finish_base_ns": 20, "finish_per_dep_ns": 3,
             "taskwait_ns": 11})";
  }
  auto b = fork_join({{2, 0, 100, {}}}, 0, 1000, 1000);
  try {
    makespan(b, "sw", 2, {"calibration=" + path});
    ADD_FAILURE() << "a calibration without spawn_remote_ns is an error";
  } catch (const ws::error &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("\"spawn_remote_ns\""), std::string::npos) << m;
    EXPECT_NE(m.find("run `weft calibrate`"), std::string::npos) << m;
  }
  std::remove(path.c_str());
}

// Picos at its default 80 MHz (12.5 ns a cycle), 1 core, one task A (1 dep,
// 100). Every instruction is 2 cycles, 25 ns. The root's fetch (Ready Task
// Request, Fetch SW ID, Fetch Picos ID) is not charged: the root is not a
// Picos task. A's Submission Request + 2 Submit Three Packets 0..75; Picos
// takes 48 packets + 8 cycles to hand A over = 56 cycles = 700 ns, 75..775;
// the root waits at 75. A's fetch 775..850, body to 950, Retire Task to 975;
// the root resumes and ends at 975.
TEST(SimSchedule, PicosInstructionLatencies) {
  auto b = fork_join({{2, 0, 100, {{0x10, dep_mode::inout}}}}, 0, 1000, 1000);
  EXPECT_DOUBLE_EQ(makespan(b, "picos", 1), 975);
}

TEST(SimSchedule, ParamsAndModelsAreChecked) {
  auto b = fork_join({{2, 0, 100, {}}}, 0, 1000, 1000);
  auto message = [&](const std::string &name,
                     const std::vector<std::string> &kv) -> std::string {
    try {
      makespan(b, name, 1, kv);
    } catch (const ws::error &e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message("fpga", {}).find("--model fpga: unknown model"),
            std::string::npos);
  EXPECT_NE(message("nexus", {"pool=0"}).find("--param pool=0"),
            std::string::npos);
  EXPECT_NE(message("ideal", {"pool=4"}).find("--param pool=4: unknown"),
            std::string::npos);
  EXPECT_NE(message("nexus", {"bogus"}).find("expected key=value"),
            std::string::npos);
}
