// The throttle's window (runtime::spawn_as, core/spawn.cpp): how many
// unfinished children per thread a creator may have before it runs ready
// tasks itself, chosen from the grain of the tasks and the shape of the
// graph (docs/architecture.md, "Throttling and placement of ready tasks").
#pragma once

#include <cstdint>

namespace weft {

// WEFT_THROTTLE_WINDOW: auto (by the measured task grain and chains),
// narrow or wide.
enum class throttle_window : int { automatic, narrow, wide };

// WEFT_THROTTLE_GRAIN: auto (the grain clock decides whether tasks are
// fine or coarse: update_grain, worth_probing, still_throttled in
// spawn.cpp), fine or coarse (that verdict forced, the clock not read for
// it). For measurements and tools whose clock does not see the native
// grain: under valgrind every interval looks coarse, so `fine` makes
// instruction counts follow the native fine-task path; `weft calibrate`
// measures deferred tasks and hand-offs, so it takes `coarse` (no in-place
// probe of its fine tasks).
enum class throttle_grain : int { automatic, fine, coarse };

// The throttle is checked once in this many children a creator spawns
// (spawn_as) and once in this many tasks it runs in place (run_now_instead,
// in_place_now).
inline constexpr uint64_t kThrottleCheckEvery = 16;

// The in-place decision's state in one word (worker::inline_gate_): the
// calls left until the next recheck in the low bits, and kGateBlocked set
// while any other test of the common case (runtime::in_place_now) might
// fail: a backlog, the engine's answer for a task without dependences not
// yet asked, coarse tasks (whose creator must leave its thieves work). The
// common case is then one load, one compare and one store: a gate in
// [2, kThrottleCheckEvery] (and the creator throttled for the running
// task). kGateBlocked is set where a test may turn (a spawn's throttle
// check, which re-estimates the grain; a backlogged child) and cleared by
// the out-of-line path (run_now_instead), which makes every test.
inline constexpr uint32_t kGateBlocked = 1u << 31;
constexpr bool gate_open(uint32_t gate) {
  return gate - 2 < kThrottleCheckEvery - 1;
}

// Ready tasks in a creator's deque per thread before it is throttled (the
// figure libgomp uses), and the windows of unfinished children per thread.
inline constexpr uint64_t kThrottlePerThread = 64;
inline constexpr uint64_t kNarrowPerThread = 64;
inline constexpr uint64_t kWidePerThread = 1024;

// A graph made of chains: a share of the tasks the team finished since the
// last estimate ran as immediate successors (the successor that its
// predecessor's retirement made ready, next on the same worker). Under the
// wide window independent chains (stream-deps: a block's kernels; h264dec's
// rows) run 90% or more of their tasks so, and sparselu, kmeans, bitonic and
// rot-cc a third to a half; a stencil whose tasks each wait for five of the
// previous sweep (jacobi) about 10%, where the wide window only costs. A
// worker keeps the wide window while at least one task in kStayShare
// chained, and takes it from the narrow one when one in kWidenShare did
// (the hysteresis keeps jacobi's noisier intervals from widening it).
inline constexpr uint64_t kStayShare = 4;
inline constexpr uint64_t kWidenShare = 2;

// Chains only show under the wide window (a creator 64 tasks per thread
// ahead may not reach the second task of any chain: stream-deps at one
// thread chains under 10% of its tasks then), so a worker whose coarse
// tasks do not chain under the narrow one tries the wide one for an
// interval: at its first estimate and then once in kProbeEvery.
inline constexpr uint32_t kProbeEvery = 64;

// The task grain as the throttle estimates it (runtime::update_grain: a
// creator's time per task it finished, its spawns and waits included):
// coarse above kCoarseTicks a task; medium above a hand-off's cost to the
// creator (kHandOffTicks), where handing a task to another worker pays;
// fine below it (empty tasks: the creator runs them itself).
enum class task_grain : uint8_t { fine, medium, coarse };

// The shape only matters where tasks are ordered: when none of the
// children a creator submitted in the interval named a dependence (c-ray's
// rows, blackscholes' or stream-barr's blocks), coarse tasks keep the wide
// window, as the grain alone chose before, whatever the chains (`ordered`
// false). Whether a child had to wait for a predecessor is no test: on an
// idle machine jacobi's workers keep up with its creator, none of its
// children waits, and a test on waiting widened 38% of its intervals.
// The window for the next interval: the mode's when it is forced, else the
// wide one for coarse tasks that run as chains (`chained` of the
// `finished` tasks of the interval were immediate successors; `wide` is
// the window of the interval), when the interval is a probe, or when none
// of them named a dependence (`ordered` false); and for medium tasks that
// run as chains (h264dec's 0.5 us macroblocks: under the narrow window the
// creator, one row ahead, runs a sixth of them itself and its spawns wait
// while the other worker idles; docs/benchmarks.md).
constexpr uint32_t window_for(throttle_window mode, task_grain grain,
                              uint64_t finished, uint64_t chained, bool wide,
                              bool probe, bool ordered) {
  if (mode == throttle_window::wide)
    return static_cast<uint32_t>(kWidePerThread);
  if (mode == throttle_window::narrow)
    return static_cast<uint32_t>(kNarrowPerThread);
  bool chains =
      finished != 0 && chained * (wide ? kStayShare : kWidenShare) >= finished;
  bool wide_next = grain == task_grain::coarse
                       ? chains || (!wide && probe) || !ordered
                       : grain == task_grain::medium && chains;
  return static_cast<uint32_t>(wide_next ? kWidePerThread : kNarrowPerThread);
}

// A throttled creator whose in-place tasks cost it less than handing them
// to another worker would stays throttled (runtime::still_throttled): the
// grain clock read at two in-place rechecks `tasks` apart (`last` 0: no
// earlier one since the creator was released), against `hand_off` ticks
// per task. A clock that went back (another CPU's) is no evidence.
constexpr bool too_fine_to_hand_off(uint64_t last, uint64_t now, uint64_t tasks,
                                    uint64_t hand_off) {
  return last != 0 && now >= last && now - last < hand_off * tasks;
}

// A slow in-place interval releases a throttled creator only when it is
// evidence of coarse tasks, not of a moment: the second slow interval in a
// row, or (for a creator with no fine verdict) one slower than
// kDecisiveSlow hand-offs per task. One slow interval alone is what a
// preemption, an interrupt, or the other worker draining the creator's
// deque while the creator's first in-place tasks run (their lines
// contended) also makes; releasing on it made about one runtime in ten at
// 2 threads defer a hundred or all of a burst's fine tasks
// (docs/benchmarks.md, "The defer mode"). Returns whether the interval
// releases: `slow_in_row` counts this one, `ticks` and `allowance` are
// per task.
inline constexpr uint32_t kSlowInRow = 2;
inline constexpr uint64_t kDecisiveSlow = 4;
constexpr bool slow_interval_releases(bool fine_before, uint32_t slow_in_row,
                                      uint64_t ticks, uint64_t allowance) {
  return slow_in_row >= kSlowInRow ||
         (!fine_before && ticks >= kDecisiveSlow * allowance);
}

} // namespace weft
