// The simulator's Myrmics model (sim/myrmics.hpp) on synthetic programs: a
// schedule computed by hand, the knee of Fig. 7b's speedup curve moving
// with task size and spawn cost as the model says, the scheduler tree
// relieving the single scheduler, and errors naming the value.
#include "myrmics.hpp"
#include "synthetic.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ws = weft::sim;

namespace {

ws::myrmics_config config(std::vector<std::string> kv) {
  ws::params p(kv);
  ws::myrmics_config c = ws::myrmics_config::from(p);
  p.check_all_used("myrmics");
  return c;
}

uint64_t cycles(const weft::trace::task_graph &g, const ws::myrmics_config &c,
                uint32_t workers) {
  return ws::simulate_myrmics(g, c, workers).makespan_cycles;
}

// The fewest workers reaching 95% of the best speedup over 1..max workers,
// for Fig. 7b's program (512 independent tasks) of `size` cycles.
uint32_t knee(uint64_t size, const ws::myrmics_config &c, uint32_t max) {
  weft::trace::task_graph g = ws::fork_join_graph({512}, size);
  double one = double(cycles(g, c, 1));
  std::vector<double> sp(max + 1);
  double best = 0;
  for (uint32_t w = 1; w <= max; ++w)
    best = std::max(best, sp[w] = one / double(cycles(g, c, w)));
  uint32_t k = 1;
  while (sp[k] < 0.95 * best)
    ++k;
  return k;
}

} // namespace

// One worker, one scheduler, messages of exactly 600 cycles, 4 tasks of
// 1000 cycles. Each spawn blocks the main task for a message up (600), the
// analysis (16200 - 2 x 600 = 15000) and the ack (600): 4 x 16200. The
// tasks then run back to back on the worker once main waits: 4 x (13300 +
// 1000). The last completion: a message up (600), its processing (600) and
// the message resuming main (600), which then ends.
TEST(SimMyrmics, HandComputedSchedule) {
  ws::myrmics_config c = config({"msg_min=600", "msg_max=600"});
  weft::trace::task_graph g = ws::fork_join_graph({4}, 1000);
  ws::myrmics_result r = ws::simulate_myrmics(g, c, 1);
  EXPECT_EQ(r.makespan_cycles, 4u * 16200 + 4u * 14300 + 1800);
  EXPECT_EQ(r.base.tasks, 5u);
  // 2 messages per spawn (request, ack), 1 per dispatch, 1 per
  // completion, the resume.
  EXPECT_EQ(r.messages, 4u * 2 + 4u + 4u + 1u);
}

// The single scheduler spawns one task per spawn_cycles, so the best worker
// count is about task size / spawn_cycles (the paper: 1 M-cycle tasks turn
// at 64 workers; on MicroBlaze, size / 37.4 k).
TEST(SimMyrmics, KneeMovesWithTaskSizeAndSpawnCost) {
  ws::myrmics_config c = config({});
  uint32_t prev = 0;
  for (uint64_t size : {131072u, 524288u, 2097152u}) {
    uint32_t k = knee(size, c, 256);
    double expect = double(size) / 16200.0;
    EXPECT_GT(k, prev) << size;
    EXPECT_GT(k, 0.8 * expect) << size;
    EXPECT_LT(k, 1.35 * expect) << size;
    prev = k;
  }
  // Twice the spawn cost halves the knee.
  ws::myrmics_config slow = config({"spawn_cycles=32400"});
  uint32_t fast_knee = knee(524288, c, 128),
           slow_knee = knee(524288, slow, 128);
  EXPECT_GT(slow_knee, 0.4 * fast_knee);
  EXPECT_LT(slow_knee, 0.65 * fast_knee);
}

// A two-level program (64 coarse tasks of 6 one-million-cycle tasks) on 128
// workers: four leaf schedulers beat one (the single scheduler spawns all
// 384 tasks itself), and the tree's leaves handle the fine tasks.
TEST(SimMyrmics, SchedulerTreeRelievesTheSingleScheduler) {
  weft::trace::task_graph g = ws::fork_join_graph({64, 6}, 1 << 20);
  uint64_t flat = cycles(g, config({}), 128);
  uint64_t two = cycles(g, config({"schedulers=1x4"}), 128);
  uint64_t three = cycles(g, config({"schedulers=1x2x2"}), 128);
  EXPECT_LT(double(two), 0.8 * double(flat));
  EXPECT_LT(double(three), 0.8 * double(flat));
  // With one worker per leaf the tree still runs everything.
  ws::myrmics_result r =
      ws::simulate_myrmics(g, config({"schedulers=1x2x2"}), 4);
  EXPECT_EQ(r.base.tasks, 1u + 64 + 64 * 6);
}

TEST(SimMyrmics, BadInputNamesTheValue) {
  auto message = [](std::vector<std::string> kv, uint32_t workers = 8) {
    try {
      weft::trace::task_graph g = ws::fork_join_graph({4}, 1000);
      ws::simulate_myrmics(g, config(std::move(kv)), workers);
    } catch (const ws::error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"schedulers=2x4"}).find("schedulers=2x4"),
            std::string::npos);
  EXPECT_NE(message({"schedulers=1x0"}).find("'0' is not a fan-out"),
            std::string::npos);
  EXPECT_NE(message({"schedulers=1xx"}).find("schedulers=1xx"),
            std::string::npos);
  EXPECT_NE(message({"msg_min=800", "msg_max=700"}).find("msg_max=700"),
            std::string::npos);
  EXPECT_NE(message({"schedulers=1x4"}, 2).find("2 workers for 4 leaf"),
            std::string::npos);
}
