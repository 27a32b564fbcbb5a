// The HWSE model on its own (no runtime): the cost model, the loop datapath,
// INIT / FETCH / END for dynamic loops, sections and guided loops, the FIFO,
// the memory-bin allocator, the unit's arbitration and its contention count,
// and the WEFT_HWSE_* variables.
#include "core/task_pool.hpp"
#include "engines/hwse/hwse_bin_allocator.hpp"
#include "engines/hwse/hwse_config.hpp"
#include "engines/hwse/hwse_cost_model.hpp"
#include "engines/hwse/hwse_engine.hpp"
#include "engines/hwse/hwse_fifo.hpp"
#include "engines/hwse/hwse_loop_datapath.hpp"
#include "engines/hwse/hwse_unit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace weft;
using namespace weft::hwse;

namespace {

config cfg(uint32_t fifo = 128, uint32_t bins = 1024, uint32_t mhz = 400) {
  config c;
  c.fifo_depth = fifo;
  c.bins = bins;
  c.clock_mhz = mhz;
  return c;
}

uint64_t counter(const ws_stats &s, const std::string &name) {
  uint64_t v = 0;
  int found = 0;
  for (const engine_counter &c : s.counters)
    if (name == c.name) {
      v = c.value;
      ++found;
    }
  EXPECT_EQ(found, 1) << name;
  return v;
}

ws_loop loop(uint64_t count, uint64_t chunk, ws_kind kind = ws_kind::dynamic,
             int nthreads = 4) {
  return ws_loop{count, chunk, kind, nthreads};
}

// Every chunk of one work share fetched by one thread.
std::vector<std::pair<uint64_t, uint64_t>> drain(engine &e, ws_state &ws) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  uint64_t b, en;
  while (e.fetch(ws, &b, &en))
    out.push_back({b, en});
  return out;
}

// Chunks must tile [0, count) in order, each no longer than `chunk` (the
// last may be shorter).
void expect_dynamic_tiling(const std::vector<std::pair<uint64_t, uint64_t>> &c,
                           uint64_t count, uint64_t chunk) {
  uint64_t next = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    ASSERT_EQ(c[i].first, next) << "chunk " << i;
    ASSERT_LT(c[i].first, c[i].second);
    uint64_t len = c[i].second - c[i].first;
    if (c[i].second != count)
      ASSERT_EQ(len, chunk) << "chunk " << i;
    else
      ASSERT_LE(len, chunk);
    next = c[i].second;
  }
  EXPECT_EQ(next, count);
}

} // namespace

// ---- cost model
// ---------------------------------------------------------------

TEST(HwseCostModel, CyclesPerPrimitiveAsDocumented) {
  // docs/engines.md: 3 cycles per register access (2 interconnect + 1
  // module), +4 for the software lock of multi-access primitives.
  EXPECT_EQ(cycles(primitive::sections_init), 3u);
  EXPECT_EQ(cycles(primitive::sections_fetch), 3u);
  EXPECT_EQ(cycles(primitive::end), 3u);
  EXPECT_EQ(cycles(primitive::alloc), 3u);
  EXPECT_EQ(cycles(primitive::free), 3u);
  EXPECT_EQ(cycles(primitive::loop_init), 13u);
  EXPECT_EQ(cycles(primitive::loop_fetch), 10u);
  EXPECT_EQ(cycles(primitive::guided_init), 16u);
  EXPECT_EQ(cycles(primitive::guided_fetch), 11u);
  EXPECT_EQ(cycles(primitive::heap_init), 13u);
}

// ---- loop datapath
// --------------------------------------------------------------

TEST(HwseLoopDatapath, DynamicChunksAndEnd) {
  loop_registers r{0, 10, 4};
  uint64_t b, e;
  ASSERT_TRUE(next_chunk(r, 0, &b, &e));
  EXPECT_EQ(b, 0u);
  EXPECT_EQ(e, 4u);
  ASSERT_TRUE(next_chunk(r, 0, &b, &e));
  EXPECT_EQ(b, 4u);
  EXPECT_EQ(e, 8u);
  ASSERT_TRUE(next_chunk(r, 0, &b, &e));
  EXPECT_EQ(b, 8u);
  EXPECT_EQ(e, 10u);
  EXPECT_FALSE(next_chunk(r, 0, &b, &e));
  EXPECT_EQ(r.start, 10u);
  loop_registers empty{0, 0, 1};
  EXPECT_FALSE(next_chunk(empty, 0, &b, &e));
}

TEST(HwseLoopDatapath, NeverWrapsAtTheTopOfTheRange) {
  const uint64_t max = UINT64_MAX;
  loop_registers r{max - 5, max, max}; // chunk larger than what is left
  uint64_t b, e;
  ASSERT_TRUE(next_chunk(r, 0, &b, &e));
  EXPECT_EQ(b, max - 5);
  EXPECT_EQ(e, max);
  EXPECT_FALSE(next_chunk(r, 0, &b, &e));
}

TEST(HwseLoopDatapath, GuidedShareIsCeilOfLeftOverMembers) {
  loop_registers r{0, 100, 2};
  uint64_t b, e;
  ASSERT_TRUE(next_chunk(r, 4, &b, &e)); // ceil(100 / 4) = 25
  EXPECT_EQ(e - b, 25u);
  ASSERT_TRUE(next_chunk(r, 4, &b, &e)); // ceil(75 / 4) = 19
  EXPECT_EQ(e - b, 19u);
  ASSERT_TRUE(next_chunk(r, 4, &b, &e)); // ceil(56 / 4) = 14
  EXPECT_EQ(e - b, 14u);
  loop_registers tail{95, 100, 2}; // ceil(5 / 4) = 2 = chunk
  ASSERT_TRUE(next_chunk(tail, 4, &b, &e));
  EXPECT_EQ(e - b, 2u);
  loop_registers last{99, 100, 3}; // less than the chunk left
  ASSERT_TRUE(next_chunk(last, 4, &b, &e));
  EXPECT_EQ(b, 99u);
  EXPECT_EQ(e, 100u);
}

// ---- INIT / FETCH / END
// ---------------------------------------------------------

TEST(HwseEngine, DynamicLoopChunksCoverTheRangeInOrder) {
  engine e(cfg());
  for (uint64_t count : {0ull, 1ull, 2ull, 7ull, 64ull, 1000ull, 1001ull})
    for (uint64_t chunk : {1ull, 2ull, 4ull, 7ull, 64ull, 5000ull}) {
      ws_state ws;
      e.init(ws, loop(count, chunk));
      auto c = drain(e, ws);
      expect_dynamic_tiling(c, count, chunk);
      uint64_t b, en;
      EXPECT_FALSE(e.fetch(ws, &b, &en)) << "fetch after the end";
      e.end(ws);
    }
}

TEST(HwseEngine, SectionsAreHandedOutOneAtATime) {
  engine e(cfg());
  ws_state ws;
  e.init(ws, loop(5, 1, ws_kind::dynamic, 2));
  auto c = drain(e, ws);
  ASSERT_EQ(c.size(), 5u);
  for (uint64_t i = 0; i < 5; ++i) {
    EXPECT_EQ(c[i].first, i);
    EXPECT_EQ(c[i].second, i + 1);
  }
  e.end(ws);
  e.end(ws);
  EXPECT_EQ(e.fsm().served(primitive::sections_init), 1u);
  EXPECT_EQ(e.fsm().served(primitive::sections_fetch), 6u);
  EXPECT_EQ(e.fsm().served(primitive::end), 2u);
}

TEST(HwseEngine, GuidedChunksShrinkAndCoverTheRange) {
  engine e(cfg());
  for (int n : {1, 2, 3, 4, 16})
    for (uint64_t chunk : {1ull, 3ull, 10ull})
      for (uint64_t count : {0ull, 1ull, 9ull, 100ull, 12345ull}) {
        ws_state ws;
        e.init(ws, loop(count, chunk, ws_kind::guided, n));
        auto c = drain(e, ws);
        uint64_t next = 0;
        for (auto [b, en] : c) {
          ASSERT_EQ(b, next);
          uint64_t left = count - b;
          uint64_t want = std::max<uint64_t>((left + n - 1) / n, chunk);
          ASSERT_EQ(en - b, std::min(want, left))
              << "n " << n << " chunk " << chunk << " count " << count;
          next = en;
        }
        EXPECT_EQ(next, count);
        for (size_t i = 1; i + 1 < c.size(); ++i)
          EXPECT_LE(c[i].second - c[i].first, c[i - 1].second - c[i - 1].first);
      }
}

TEST(HwseEngine, CountsUpToTheLargestLogicalIterationCount) {
  engine e(cfg(128, 0));
  const uint64_t max = UINT64_MAX;
  const uint64_t q = uint64_t(1) << 62;
  ws_state ws;
  e.init(ws, loop(max, q));
  auto c = drain(e, ws);
  ASSERT_EQ(c.size(), 4u);
  expect_dynamic_tiling(c, max, q);
  EXPECT_EQ(c[3].first, 3 * q);
  EXPECT_EQ(c[3].second, max);

  e.init(ws, loop(max, max));
  c = drain(e, ws);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].second, max);

  e.init(ws, loop(max, 1, ws_kind::guided, 4));
  c = drain(e, ws);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].second, max / 4 + 1); // ceil((2^64 - 1) / 4)
  uint64_t next = 0;
  for (auto [b, en] : c) {
    ASSERT_EQ(b, next);
    next = en;
  }
  EXPECT_EQ(next, max);
}

TEST(HwseEngine, LiveWorkSharesKeepTheirOwnRegisters) {
  // Two nowait loops in flight at once: each work share is its own bank.
  engine e(cfg());
  ws_state a, b;
  e.init(a, loop(10, 3));
  e.init(b, loop(7, 1));
  uint64_t x, y;
  ASSERT_TRUE(e.fetch(a, &x, &y));
  EXPECT_EQ(x, 0u);
  ASSERT_TRUE(e.fetch(b, &x, &y));
  EXPECT_EQ(x, 0u);
  ASSERT_TRUE(e.fetch(a, &x, &y));
  EXPECT_EQ(x, 3u);
  EXPECT_EQ(y, 6u);
  ASSERT_TRUE(e.fetch(b, &x, &y));
  EXPECT_EQ(x, 1u);
  // LOOP_START is written through to each bank.
  EXPECT_EQ(a.next.load(), 6u);
  EXPECT_EQ(b.next.load(), 2u);
  e.end(a);
  ASSERT_TRUE(e.fetch(b, &x, &y));
  EXPECT_EQ(x, 2u);
  // A work share is reusable once every member has ended it.
  e.init(a, loop(2, 2));
  ASSERT_TRUE(e.fetch(a, &x, &y));
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 2u);
  EXPECT_FALSE(e.fetch(a, &x, &y));
}

TEST(HwseEngine, ConcurrentFetchHandsOutEveryIterationOnce) {
  constexpr int kThreads = 4;
  struct shape_case {
    uint64_t count, chunk;
    ws_kind kind;
  };
  for (shape_case sc : {shape_case{200000, 1, ws_kind::dynamic},
                        shape_case{200000, 7, ws_kind::dynamic},
                        shape_case{200000, 1, ws_kind::guided},
                        shape_case{200000, 16, ws_kind::guided}}) {
    engine e(cfg());
    ws_state ws;
    e.init(ws, loop(sc.count, sc.chunk, sc.kind, kThreads));
    std::vector<std::atomic<uint8_t>> seen(sc.count);
    std::atomic<int> go{0};
    std::atomic<uint64_t> bad_order{0};
    std::vector<std::thread> th;
    for (int t = 0; t < kThreads; ++t)
      th.emplace_back([&] {
        go.fetch_add(1);
        while (go.load() < kThreads)
          std::this_thread::yield();
        uint64_t b, en, last_end = 0;
        while (e.fetch(ws, &b, &en)) {
          if (b < last_end) // one thread's chunks come in order
            bad_order.fetch_add(1);
          last_end = en;
          for (uint64_t i = b; i < en; ++i)
            seen[i].fetch_add(1, std::memory_order_relaxed);
        }
        e.end(ws);
      });
    for (auto &t : th)
      t.join();
    uint64_t missing = 0, twice = 0;
    for (auto &s : seen) {
      missing += s.load() == 0;
      twice += s.load() > 1;
    }
    EXPECT_EQ(missing, 0u);
    EXPECT_EQ(twice, 0u);
    EXPECT_EQ(bad_order.load(), 0u);
    EXPECT_EQ(e.fsm().served(primitive::end), uint64_t(kThreads));
    // Every wait counts at least one 3-cycle primitive ahead of it.
    EXPECT_LE(e.fsm().waits(), e.fsm().primitives());
    EXPECT_GE(e.fsm().wait_cycles(), 3 * e.fsm().waits());
    EXPECT_EQ(e.fsm().queued_cycles(), 0u);
  }
}

// ---- cycles and contention
// -----------------------------------------------------

TEST(HwseEngine, UncontendedSequenceCostsTheDocumentedCycles) {
  engine e(cfg(128, 0, 400));
  ws_state ws;
  e.init(ws, loop(10, 3)); // 13
  auto c = drain(e, ws);   // 4 chunks + the empty answer: 5 x 10
  ASSERT_EQ(c.size(), 4u);
  e.end(ws); // 3
  EXPECT_EQ(e.fsm().busy_cycles(), 13u + 50u + 3u);

  e.init(ws, loop(4, 1)); // sections: 3 + 5 x 3 + 3
  drain(e, ws);
  e.end(ws);
  EXPECT_EQ(e.fsm().busy_cycles(), 66u + 21u);

  e.init(ws, loop(8, 1, ws_kind::guided, 2)); // 16; chunks 4, 2, 1, 1
  c = drain(e, ws);                           // 5 x 11
  ASSERT_EQ(c.size(), 4u);
  e.end(ws); // 3
  EXPECT_EQ(e.fsm().busy_cycles(), 87u + 16u + 55u + 3u);

  ws_stats s;
  e.add_stats(s);
  EXPECT_EQ(s.inits, 3u);
  EXPECT_EQ(s.fetches, 15u);
  EXPECT_EQ(s.ends, 3u);
  EXPECT_EQ(s.modelled_cycles, 161u);
  EXPECT_EQ(counter(s, "hwse.modelled_cycles"), 161u);
  EXPECT_EQ(counter(s, "hwse.modelled_ns"), 402u); // 161 cycles at 400 MHz
  EXPECT_EQ(counter(s, "hwse.loop.init"), 1u);
  EXPECT_EQ(counter(s, "hwse.loop.fetch"), 5u);
  EXPECT_EQ(counter(s, "hwse.sections.init"), 1u);
  EXPECT_EQ(counter(s, "hwse.sections.fetch"), 5u);
  EXPECT_EQ(counter(s, "hwse.guided.init"), 1u);
  EXPECT_EQ(counter(s, "hwse.guided.fetch"), 5u);
  EXPECT_EQ(counter(s, "hwse.end"), 3u);
  EXPECT_EQ(counter(s, "hwse.primitives"), 21u);
  EXPECT_EQ(counter(s, "hwse.contention.waits"), 0u);
  EXPECT_EQ(counter(s, "hwse.contention.wait_cycles"), 0u);
  EXPECT_EQ(counter(s, "hwse.clock_mhz"), 400u);
}

TEST(HwseEngine, ClockScalesModelledTime) {
  engine e(cfg(128, 0, 1000));
  ws_state ws;
  e.init(ws, loop(1, 1));
  drain(e, ws);
  e.end(ws);
  EXPECT_EQ(e.fsm().busy_cycles(), 12u);
  EXPECT_EQ(e.cycles_to_ns(12), 12u);
  engine slow(cfg(128, 0, 3));
  EXPECT_EQ(slow.cycles_to_ns(12), 4000u);
  EXPECT_EQ(slow.cycles_to_ns(UINT64_MAX / 4),
            UINT64_MAX / 4 / 3 * 1000 + UINT64_MAX / 4 % 3 * 1000 / 3);
}

TEST(HwseUnit, NoContentionSingleThreaded) {
  unit u;
  for (int i = 0; i < 1000; ++i)
    u.serve(primitive::loop_fetch, [] {});
  EXPECT_EQ(u.served(primitive::loop_fetch), 1000u);
  EXPECT_EQ(u.busy_cycles(), 10000u);
  EXPECT_EQ(u.waits(), 0u);
  EXPECT_EQ(u.wait_cycles(), 0u);
}

TEST(HwseUnit, ARequestFindingTheUnitBusyWaitsForWhatIsAhead) {
  // A holds the unit with a loop FETCH (10 cycles) until B and C have
  // queued behind it: B waits 10 cycles, C waits 10 + B's 3.
  unit u;
  std::atomic<bool> b_done{false};
  std::thread a([&] {
    u.serve(primitive::loop_fetch, [&] {
      while (u.queued_cycles() != 10 + 3)
        std::this_thread::yield();
      // B is queued behind this primitive.
    });
  });
  while (u.queued_cycles() != 10)
    std::this_thread::yield();
  std::thread b(
      [&] { u.serve(primitive::sections_fetch, [&] { b_done = true; }); });
  a.join();
  b.join();
  EXPECT_TRUE(b_done.load());
  EXPECT_EQ(u.waits(), 1u);
  EXPECT_EQ(u.wait_cycles(), 10u);

  // Two queued behind a holder.
  std::atomic<bool> release{false};
  std::thread h([&] {
    u.serve(primitive::alloc, [&] {
      while (!release.load())
        std::this_thread::yield();
    });
  });
  while (u.queued_cycles() != 3)
    std::this_thread::yield();
  std::thread q1([&] { u.serve(primitive::free, [] {}); });
  while (u.queued_cycles() != 6)
    std::this_thread::yield();
  std::thread q2([&] { u.serve(primitive::end, [] {}); });
  while (u.queued_cycles() != 9)
    std::this_thread::yield();
  release = true;
  h.join();
  q1.join();
  q2.join();
  EXPECT_EQ(u.waits(), 1u + 2u);
  EXPECT_EQ(u.wait_cycles(), 10u + 3u + 6u);
  EXPECT_EQ(u.queued_cycles(), 0u);
}

TEST(HwseUnit, InspectHoldsTheUnitWithoutCounting) {
  unit u;
  int v = u.inspect([] { return 7; });
  EXPECT_EQ(v, 7);
  EXPECT_EQ(u.primitives(), 0u);
  EXPECT_EQ(u.busy_cycles(), 0u);
  u.serve(primitive::alloc, [] {});
  EXPECT_EQ(u.primitives(), 1u);
  EXPECT_EQ(u.waits(), 0u);
}

// ---- FIFO
// ------------------------------------------------------------------------

TEST(HwseFifo, FirstInFirstOutUpToItsDepth) {
  for (uint32_t depth : {32u, 64u, 128u}) {
    fifo f(depth);
    std::vector<int> x(depth + 1);
    for (uint32_t i = 0; i < depth; ++i)
      ASSERT_TRUE(f.push(&x[i]));
    EXPECT_FALSE(f.push(&x[depth])) << "full at " << depth;
    EXPECT_EQ(f.size(), depth);
    EXPECT_EQ(f.peak(), depth);
    for (uint32_t i = 0; i < depth; ++i)
      ASSERT_EQ(f.pop(), &x[i]);
    EXPECT_EQ(f.pop(), nullptr);
    // Wraps around many times.
    for (uint32_t i = 0; i < 10 * depth; ++i) {
      ASSERT_TRUE(f.push(&x[i % depth]));
      ASSERT_EQ(f.pop(), &x[i % depth]);
    }
    EXPECT_EQ(f.peak(), depth);
  }
}

TEST(HwseFifoDeathTest, OtherDepthsAreRefused) {
  EXPECT_DEATH(fifo f(48), "FIFO of 48 entries");
}

// ---- memory bins
// -----------------------------------------------------------------

TEST(HwseBins, DistinctAlignedBinsUntilExhausted) {
  bin_allocator a(100, kBlockSize, 32);
  std::set<char *> got;
  for (int i = 0; i < 100; ++i) {
    auto *p = static_cast<char *>(a.alloc());
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    EXPECT_TRUE(a.owns(p));
    std::memset(p, 0xab, kBlockSize); // the whole bin is usable
    got.insert(p);
  }
  EXPECT_EQ(got.size(), 100u);
  for (char *p : got) { // no two bins overlap
    if (p != *got.rbegin()) {
      EXPECT_GE(*got.upper_bound(p) - p, static_cast<ptrdiff_t>(kBlockSize));
    }
  }
  EXPECT_EQ(a.alloc(), nullptr);
  EXPECT_EQ(a.exhausted(), 1u);
  EXPECT_EQ(a.in_use(), 100u);
  EXPECT_EQ(a.in_use_peak(), 100u);
  EXPECT_EQ(a.fresh(), 100u);
  EXPECT_FALSE(a.owns(*got.begin() + 64));
  int outside;
  EXPECT_FALSE(a.owns(&outside));
}

TEST(HwseBins, FreedBinsAreReused) {
  bin_allocator a(8, kBlockSize, 32);
  std::vector<void *> v;
  for (int i = 0; i < 8; ++i)
    v.push_back(a.alloc());
  a.free(v[5]);
  a.free(v[2]);
  EXPECT_EQ(a.queue().size(), 2u);
  EXPECT_EQ(a.alloc(), v[5]); // FIFO order
  EXPECT_EQ(a.alloc(), v[2]);
  EXPECT_EQ(a.alloc(), nullptr);
  EXPECT_EQ(a.handed_out(), 10u);
  EXPECT_EQ(a.fresh(), 8u);
}

TEST(HwseBins, FreshBinsFirstThenTheFifo) {
  // The paper's order: the loop scheduler hands out the heap until it is
  // exhausted; only then are freed bins popped from the FIFO.
  bin_allocator a(4, kBlockSize, 32);
  void *p0 = a.alloc();
  a.free(p0);
  void *p1 = a.alloc();
  EXPECT_NE(p1, p0);
  EXPECT_EQ(a.fresh(), 2u);
  a.alloc();
  a.alloc();
  EXPECT_EQ(a.alloc(), p0);
}

TEST(HwseBins, FullFifoFreesGoToTheOverflowListAndAllBinsStayReusable) {
  constexpr uint32_t kBins = 300;
  for (uint32_t depth : {32u, 64u, 128u}) {
    bin_allocator a(kBins, kBlockSize, depth);
    std::vector<void *> v;
    for (uint32_t i = 0; i < kBins; ++i)
      v.push_back(a.alloc());
    for (void *p : v)
      a.free(p);
    EXPECT_EQ(a.queue().size(), depth);
    EXPECT_EQ(a.queue().peak(), depth);
    EXPECT_EQ(a.overflow_frees(), kBins - depth);
    EXPECT_EQ(a.overflow_peak(), kBins - depth);
    EXPECT_EQ(a.in_use(), 0u);
    std::set<void *> again;
    for (uint32_t i = 0; i < kBins; ++i) {
      void *p = a.alloc();
      ASSERT_NE(p, nullptr) << "bin " << i << " lost at depth " << depth;
      again.insert(p);
    }
    EXPECT_EQ(again, std::set<void *>(v.begin(), v.end()));
    EXPECT_EQ(a.overflow_allocs(), kBins - depth);
    EXPECT_EQ(a.alloc(), nullptr);
    // And around again, interleaved.
    for (void *p : again)
      a.free(p);
    for (int round = 0; round < 3; ++round) {
      std::vector<void *> w;
      for (uint32_t i = 0; i < kBins; ++i)
        w.push_back(a.alloc());
      EXPECT_EQ(std::set<void *>(w.begin(), w.end()).size(), size_t(kBins));
      EXPECT_EQ(std::count(w.begin(), w.end(), nullptr), 0);
      for (void *p : w)
        a.free(p);
    }
  }
}

TEST(HwseBinsDeathTest, BadFreesAreFatal) {
  EXPECT_DEATH(
      {
        bin_allocator a(4, kBlockSize, 32);
        void *p = a.alloc();
        a.free(p);
        a.free(p);
      },
      "not in use");
  EXPECT_DEATH(
      {
        bin_allocator a(4, kBlockSize, 32);
        int x;
        a.free(&x);
      },
      "not a memory bin");
  EXPECT_DEATH(
      {
        bin_allocator a(4, kBlockSize, 32);
        a.free(static_cast<char *>(a.alloc()) + 64);
      },
      "not a memory bin");
  EXPECT_DEATH(
      {
        bin_allocator a(4, kBlockSize, 32);
        a.alloc();
        a.free(static_cast<char *>(a.alloc()) + kBlockSize);
      },
      "never handed out");
  // A freed bin written to (a use after free) is caught when handed out.
  EXPECT_DEATH(
      {
        bin_allocator a(1, kBlockSize, 32);
        void *p = a.alloc();
        a.free(p);
        std::memset(p, 0, 16);
        a.alloc();
      },
      "not marked free");
}

TEST(HwseBins, ABinInUseMayHoldAnyData) {
  // The user owns all of a bin while it is in use, its first words too.
  bin_allocator a(2, kBlockSize, 32);
  void *p = a.alloc();
  std::memset(p, 0xff, kBlockSize);
  a.free(p);
  a.alloc(); // the second fresh bin
  void *q = a.alloc();
  EXPECT_EQ(q, p);
  std::memset(q, 0, kBlockSize);
  a.free(q);
  EXPECT_EQ(a.alloc(), p);
}

TEST(HwseEngine, DescriptorBinsThroughThePrimitives) {
  engine e(cfg(32, 40));
  ASSERT_TRUE(e.allocates_descriptors());
  std::vector<void *> v;
  for (int i = 0; i < 40; ++i) {
    void *p = e.alloc_descriptor();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    v.push_back(p);
  }
  EXPECT_EQ(e.alloc_descriptor(), nullptr); // the core uses its pools
  for (void *p : v)
    e.free_descriptor(p);
  ws_stats s;
  e.add_stats(s);
  EXPECT_EQ(counter(s, "hwse.alloc"), 41u);
  EXPECT_EQ(counter(s, "hwse.free"), 40u);
  EXPECT_EQ(counter(s, "hwse.heap.init"), 1u);
  EXPECT_EQ(counter(s, "hwse.bins"), 40u);
  EXPECT_EQ(counter(s, "hwse.bins.handed_out"), 40u);
  EXPECT_EQ(counter(s, "hwse.bins.in_use"), 0u);
  EXPECT_EQ(counter(s, "hwse.bins.in_use_peak"), 40u);
  EXPECT_EQ(counter(s, "hwse.bins.exhausted"), 1u);
  EXPECT_EQ(counter(s, "hwse.fifo_depth"), 32u);
  EXPECT_EQ(counter(s, "hwse.fifo.peak"), 32u);
  EXPECT_EQ(counter(s, "hwse.overflow.frees"), 8u);
  EXPECT_EQ(counter(s, "hwse.overflow.allocs"), 0u);
  EXPECT_EQ(counter(s, "hwse.overflow.peak"), 8u);
  EXPECT_EQ(s.modelled_cycles, 13u + 41u * 3u + 40u * 3u);
  EXPECT_EQ(s.inits + s.fetches + s.ends, 0u); // no work share yet
}

TEST(HwseEngine, NoBinsMeansNoDescriptors) {
  engine e(cfg(64, 0));
  EXPECT_FALSE(e.allocates_descriptors());
  EXPECT_EQ(e.alloc_descriptor(), nullptr);
  EXPECT_EQ(e.fsm().primitives(), 0u);
}

TEST(HwseEngine, ConcurrentAllocAndFreeNeverShareABin) {
  constexpr uint32_t kBins = 64;
  constexpr int kThreads = 4;
  engine e(cfg(32, kBins));
  std::mutex lock;
  std::set<void *> held; // bins some thread holds now
  std::atomic<int> twice{0}, go{0};
  std::atomic<uint64_t> got{0};
  auto take = [&](void *p) {
    std::lock_guard<std::mutex> g(lock);
    if (!held.insert(p).second)
      twice.fetch_add(1);
  };
  auto give = [&](void *p) {
    std::lock_guard<std::mutex> g(lock);
    held.erase(p);
  };
  std::vector<std::thread> th;
  for (int t = 0; t < kThreads; ++t)
    th.emplace_back([&, t] {
      go.fetch_add(1);
      while (go.load() < kThreads)
        std::this_thread::yield();
      std::vector<void *> mine;
      for (int i = 0; i < 20000; ++i) {
        if (mine.size() < 24 && (i % 3 != 2 || mine.empty())) {
          if (void *p = e.alloc_descriptor()) {
            take(p);
            std::memset(p, t, kBlockSize); // the descriptor's user writes it
            mine.push_back(p);
            got.fetch_add(1);
          }
        } else {
          void *p = mine.back();
          mine.pop_back();
          give(p);
          e.free_descriptor(p);
        }
      }
      for (void *p : mine) {
        give(p);
        e.free_descriptor(p);
      }
    });
  for (auto &t : th)
    t.join();
  EXPECT_EQ(twice.load(), 0);
  EXPECT_GT(got.load(), 0u);
  // Every bin is free again and can be handed out.
  std::set<void *> all;
  for (uint32_t i = 0; i < kBins; ++i)
    all.insert(e.alloc_descriptor());
  EXPECT_EQ(all.size(), size_t(kBins));
  EXPECT_EQ(all.count(nullptr), 0u);
  EXPECT_EQ(e.alloc_descriptor(), nullptr);
  ws_stats s;
  e.add_stats(s);
  EXPECT_EQ(counter(s, "hwse.bins.in_use"), uint64_t(kBins));
  EXPECT_EQ(counter(s, "hwse.bins.in_use_peak"), uint64_t(kBins));
  EXPECT_EQ(counter(s, "hwse.bins.handed_out"), got.load() + kBins);
}

// ---- configuration
// ---------------------------------------------------------------

TEST(HwseConfig, DefaultsAndValidValues) {
  config c;
  std::string err;
  ASSERT_TRUE(parse_config(nullptr, nullptr, nullptr, &c, &err));
  EXPECT_EQ(c.fifo_depth, 128u);
  EXPECT_EQ(c.bins, 1024u);
  EXPECT_EQ(c.clock_mhz, 400u);
  ASSERT_TRUE(parse_config("", "", "", &c, &err));
  EXPECT_EQ(c.fifo_depth, 128u);
  for (const char *d : {"32", "64", "128"}) {
    ASSERT_TRUE(parse_config(d, "0", "1", &c, &err)) << d;
    EXPECT_EQ(c.fifo_depth, static_cast<uint32_t>(std::atoi(d)));
    EXPECT_EQ(c.bins, 0u);
    EXPECT_EQ(c.clock_mhz, 1u);
  }
  ASSERT_TRUE(parse_config(nullptr, "1048576", "100000", &c, &err));
  EXPECT_EQ(c.bins, 1048576u);
  EXPECT_EQ(c.clock_mhz, 100000u);
}

TEST(HwseConfig, BadValuesNameTheVariableAndTheValue) {
  struct bad {
    const char *fifo, *bins, *mhz, *want;
  };
  for (bad b : {bad{"48", nullptr, nullptr, "WEFT_HWSE_FIFO=48"},
                bad{"256", nullptr, nullptr, "WEFT_HWSE_FIFO=256"},
                bad{"sixty", nullptr, nullptr, "WEFT_HWSE_FIFO=sixty"},
                bad{"+64", nullptr, nullptr, "WEFT_HWSE_FIFO=+64"},
                bad{"64 ", nullptr, nullptr, "WEFT_HWSE_FIFO=64 "},
                bad{nullptr, "-1", nullptr, "WEFT_HWSE_BINS=-1"},
                bad{nullptr, "1048577", nullptr, "WEFT_HWSE_BINS=1048577"},
                bad{nullptr, "12x", nullptr, "WEFT_HWSE_BINS=12x"},
                bad{nullptr, "99999999999999999999", nullptr,
                    "WEFT_HWSE_BINS=99999999999999999999"},
                bad{nullptr, nullptr, "0", "WEFT_HWSE_CLOCK_MHZ=0"},
                bad{nullptr, nullptr, "4e2", "WEFT_HWSE_CLOCK_MHZ=4e2"},
                bad{nullptr, nullptr, "400.5", "WEFT_HWSE_CLOCK_MHZ=400.5"}}) {
    config c;
    std::string err;
    EXPECT_FALSE(parse_config(b.fifo, b.bins, b.mhz, &c, &err)) << b.want;
    EXPECT_NE(err.find(b.want), std::string::npos) << err;
  }
}

TEST(HwseConfigDeathTest, BadEnvironmentIsFatal) {
  EXPECT_DEATH(
      {
        setenv("WEFT_HWSE_FIFO", "100", 1);
        config_from_env();
      },
      "WEFT_HWSE_FIFO=100: not a FIFO depth of the HWSE \\(32, 64 or 128\\)");
  EXPECT_DEATH(
      {
        setenv("WEFT_HWSE_CLOCK_MHZ", "fast", 1);
        make_ws_engine("hwse");
      },
      "WEFT_HWSE_CLOCK_MHZ=fast");
}

TEST(HwseRegistry, RegisteredAsHwse) {
  unsetenv("WEFT_HWSE_FIFO");
  unsetenv("WEFT_HWSE_BINS");
  unsetenv("WEFT_HWSE_CLOCK_MHZ");
  auto e = make_ws_engine("hwse");
  ASSERT_NE(e, nullptr);
  EXPECT_STREQ(e->name(), "hwse");
  EXPECT_TRUE(e->allocates_descriptors());
  EXPECT_NE(std::string(ws_engine_names()).find("hwse"), std::string::npos);
  void *p = e->alloc_descriptor();
  ASSERT_NE(p, nullptr);
  e->free_descriptor(p);
}

TEST(HwseEngineDeathTest, ChunkZeroIsRefused) {
  EXPECT_DEATH(
      {
        engine e(cfg());
        ws_state ws;
        e.init(ws, loop(10, 0));
      },
      "chunk 0");
}
