// The throttle's window decision (core/throttle.hpp) as a function of its
// signals: the task grain, the share of the team's tasks that ran as
// immediate successors, the window of the interval and whether it is a
// probe. The wide window is for coarse tasks that run as chains
// (stream-deps: 90% chained under it) and for medium ones that do
// (h264dec's 0.5 us macroblocks); coarse tasks that do not (jacobi: about
// 10%) and fine tasks keep the narrow one, unless coarse tasks do not wait
// for predecessors (then the grain alone decides); WEFT_THROTTLE_WINDOW
// forces either.
#include "core/throttle.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace weft {
namespace {

constexpr uint32_t kWide = static_cast<uint32_t>(kWidePerThread);
constexpr uint32_t kNarrow = static_cast<uint32_t>(kNarrowPerThread);
constexpr throttle_window kAuto = throttle_window::automatic;
constexpr task_grain kFine = task_grain::fine;
constexpr task_grain kMedium = task_grain::medium;
constexpr task_grain kCoarse = task_grain::coarse;

TEST(ThrottleWindow, WideWindowIsWider) { EXPECT_GT(kWide, kNarrow); }

TEST(ThrottleWindow, CoarseChainsKeepTheWideWindow) {
  // stream-deps (90%), h264dec (96%), sparselu and kmeans (about half),
  // rot-cc (a third) under the wide window.
  EXPECT_EQ(window_for(kAuto, kCoarse, 64, 58, true, false, true), kWide);
  EXPECT_EQ(window_for(kAuto, kCoarse, 100, 50, true, false, true), kWide);
  EXPECT_EQ(window_for(kAuto, kCoarse, 100, 32, true, false, true), kWide);
}

TEST(ThrottleWindow, CoarseTasksThatDoNotChainLoseTheWideWindow) {
  // jacobi under the wide window: coarse (6-11 us per task), 10% chained.
  EXPECT_EQ(window_for(kAuto, kCoarse, 100, 11, true, false, true), kNarrow);
  EXPECT_EQ(window_for(kAuto, kCoarse, 64, 0, true, false, true), kNarrow);
  // A probe does not extend a wide interval.
  EXPECT_EQ(window_for(kAuto, kCoarse, 100, 11, true, true, true), kNarrow);
}

TEST(ThrottleWindow, TheSharesDecideAtTheirThresholds) {
  const uint64_t stay = 64 * kStayShare, widen = 64 * kWidenShare;
  EXPECT_EQ(window_for(kAuto, kCoarse, stay, 64, true, false, true), kWide);
  EXPECT_EQ(window_for(kAuto, kCoarse, stay, 63, true, false, true), kNarrow);
  EXPECT_EQ(window_for(kAuto, kCoarse, widen, 64, false, false, true), kWide);
  EXPECT_EQ(window_for(kAuto, kCoarse, widen, 63, false, false, true), kNarrow);
  // Widening asks for more than staying wide (hysteresis).
  EXPECT_GT(kStayShare, kWidenShare);
}

TEST(ThrottleWindow, NarrowCoarseTasksWidenOnlyOnChainsOrAProbe) {
  // jacobi's noisier narrow intervals (up to a third chained) stay narrow.
  EXPECT_EQ(window_for(kAuto, kCoarse, 96, 32, false, false, true), kNarrow);
  EXPECT_EQ(window_for(kAuto, kCoarse, 64, 0, false, false, true), kNarrow);
  // A probe widens whatever the share (stream-deps at one thread chains
  // under 10% of its tasks under the narrow window).
  EXPECT_EQ(window_for(kAuto, kCoarse, 64, 0, false, true, true), kWide);
  EXPECT_EQ(window_for(kAuto, kCoarse, 64, 40, false, false, true), kWide);
}

TEST(ThrottleWindow, WithoutOrderedTasksTheGrainAloneDecides) {
  // c-ray, blackscholes, stream-barr: no dependences, no chains; coarse
  // tasks keep the wide window, fine ones the narrow one.
  for (bool wide : {false, true})
    for (bool probe : {false, true}) {
      EXPECT_EQ(window_for(kAuto, kCoarse, 64, 0, wide, probe, false), kWide);
      EXPECT_EQ(window_for(kAuto, kFine, 64, 0, wide, probe, false), kNarrow);
    }
}

TEST(ThrottleWindow, NoTaskFinishedIsNoChain) {
  EXPECT_EQ(window_for(kAuto, kCoarse, 0, 0, true, false, true), kNarrow);
  EXPECT_EQ(window_for(kAuto, kCoarse, 0, 0, false, false, true), kNarrow);
}

TEST(ThrottleWindow, FineTasksKeepTheNarrowWindowEvenAsChains) {
  for (bool wide : {false, true})
    for (bool probe : {false, true}) {
      EXPECT_EQ(window_for(kAuto, kFine, 64, 64, wide, probe, true), kNarrow);
      EXPECT_EQ(window_for(kAuto, kFine, 64, 0, wide, probe, true), kNarrow);
    }
}

TEST(ThrottleWindow, MediumTasksTakeTheWideWindowOnlyAsChains) {
  // h264dec's macroblocks of 300 rounds (about 1,650 ticks a task on the
  // creator, 82% chained): wide, and they keep it at the stay share.
  EXPECT_EQ(window_for(kAuto, kMedium, 64, 52, false, false, true), kWide);
  EXPECT_EQ(window_for(kAuto, kMedium, 64, 16, true, false, true), kWide);
  EXPECT_EQ(window_for(kAuto, kMedium, 64, 15, true, false, true), kNarrow);
  // Not chains: narrow, and neither a probe nor unordered tasks widen
  // them (those are the coarse grain's reasons).
  for (bool wide : {false, true})
    for (bool probe : {false, true})
      for (bool ordered : {false, true})
        EXPECT_EQ(window_for(kAuto, kMedium, 64, 0, wide, probe, ordered),
                  kNarrow);
}

TEST(ThrottleWindow, TheSettingOverridesEverySignal) {
  for (task_grain grain : {kFine, kMedium, kCoarse})
    for (uint64_t chained : {uint64_t{0}, uint64_t{64}})
      for (bool wide : {false, true})
        for (bool probe : {false, true})
          for (bool ordered : {false, true}) {
            EXPECT_EQ(window_for(throttle_window::wide, grain, 64, chained,
                                 wide, probe, ordered),
                      kWide);
            EXPECT_EQ(window_for(throttle_window::narrow, grain, 64, chained,
                                 wide, probe, ordered),
                      kNarrow);
          }
}

// The in-place recheck: tasks cheaper than a hand-off keep the creator
// throttled; dearer ones, a first interval and a clock that went back go
// to the throttle's test.
TEST(ThrottleHandOff, OnlyAMeasuredFineIntervalKeepsTheCreator) {
  EXPECT_TRUE(too_fine_to_hand_off(1000, 1000 + 16 * 512 - 1, 16, 512));
  EXPECT_FALSE(too_fine_to_hand_off(1000, 1000 + 16 * 512, 16, 512));
  EXPECT_FALSE(too_fine_to_hand_off(1000, 1000 + 16 * 5000, 16, 512));
  EXPECT_FALSE(too_fine_to_hand_off(0, 100, 16, 512)) << "no earlier check";
  EXPECT_FALSE(too_fine_to_hand_off(5000, 4000, 16, 512)) << "clock went back";
}

// The hysteresis: one slow interval releases the creator only when it is
// far too slow and no interval since the spawn check was fine; a second
// slow one in a row always does.
TEST(ThrottleHandOff, OneSlowIntervalIsNoEvidenceUnlessFarTooSlow) {
  // A creator kept for fine tasks, then one slow interval (a preemption,
  // the other worker draining the deque): kept, however slow.
  EXPECT_FALSE(slow_interval_releases(true, 1, 600, 512));
  EXPECT_FALSE(slow_interval_releases(true, 1, 1000000, 512));
  // The second in a row releases it.
  EXPECT_TRUE(slow_interval_releases(true, kSlowInRow, 600, 512));
  // No fine interval yet: a marginal first interval keeps it, a coarse one
  // (kDecisiveSlow hand-offs per task and more) releases it at once.
  EXPECT_FALSE(slow_interval_releases(false, 1, 4 * 512 - 1, 512));
  EXPECT_TRUE(slow_interval_releases(false, 1, kDecisiveSlow * 512, 512));
  EXPECT_TRUE(slow_interval_releases(false, kSlowInRow, 513, 512));
}

} // namespace
} // namespace weft
