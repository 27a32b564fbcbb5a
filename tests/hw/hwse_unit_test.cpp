// The whole HWSE RTL (hw/hwse/hwse.sv, XLEN 64) through its register port
// (hw/sim/hwse_rtl_port.hpp): the register map, sections, dynamic and guided
// loops against the functional model's datapath, END's per-thread
// registers, the memory-bin allocator (fresh bins, then the FIFO, full and
// empty), errors, and the cycles each access takes.
#include "../../src/engines/hwse/hwse_loop_datapath.hpp"
#include "hwse_rtl_port.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

using namespace weft::hwse_rtl;

namespace {

constexpr uint32_t kGuidedCycles = 64 / kDivBits + 2; // FETCH_ISTART, guided

void ok_write(port &p, unsigned a, uint64_t v) {
  const response r = p.write(a, v);
  ASSERT_FALSE(r.error) << "write " << a;
  EXPECT_EQ(r.cycles, 1u);
}
uint64_t ok_read(port &p, unsigned a) {
  const response r = p.read(a);
  EXPECT_FALSE(r.error) << "read " << a;
  return r.rdata;
}

class HwseUnit : public ::testing::TestWithParam<unsigned> {};

TEST_P(HwseUnit, RegistersReadBack) {
  auto p = make_port(GetParam());
  ok_write(*p, kLoopStart, 5);
  ok_write(*p, kLoopEnd, 99);
  ok_write(*p, kLoopIncr, 7);
  ok_write(*p, kLoopMembers, 3);
  EXPECT_EQ(ok_read(*p, kLoopStart), 5u);
  EXPECT_EQ(ok_read(*p, kLoopEnd), 99u);
  EXPECT_EQ(ok_read(*p, kLoopIncr), 7u);
  EXPECT_EQ(ok_read(*p, kLoopMembers), 3u);
  ok_write(*p, kLoopStart, 6); // selects dynamic mode
  EXPECT_EQ(ok_read(*p, kLoopMembers), 0u);
  ok_write(*p, kHeapStart, 0x1000);
  ok_write(*p, kHeapEnd, 0x2000);
  ok_write(*p, kHeapIncr, 0x40);
  EXPECT_EQ(ok_read(*p, kHeapStart), 0x1000u);
  EXPECT_EQ(ok_read(*p, kHeapEnd), 0x2000u);
  EXPECT_EQ(ok_read(*p, kHeapIncr), 0x40u);
}

TEST_P(HwseUnit, BadAccessesAnswerErrorsAndChangeNothing) {
  auto p = make_port(GetParam());
  ok_write(*p, kLoopIncr, 4);
  EXPECT_TRUE(p->write(kLoopIncr, 0).error);
  EXPECT_EQ(ok_read(*p, kLoopIncr), 4u);
  EXPECT_TRUE(p->write(kHeapIncr, 0).error);
  EXPECT_TRUE(p->write(kEnd, kThreads).error);
  EXPECT_TRUE(p->read(kSectionsInit).error);
  EXPECT_TRUE(p->read(kEnd).error);
  EXPECT_TRUE(p->read(kFree).error);
  EXPECT_TRUE(p->write(kSectionsFetch, 1).error);
  EXPECT_TRUE(p->write(kStatus, 1).error);
  EXPECT_TRUE(p->read(15).error);
  EXPECT_TRUE(p->read(kWsBase + kThreads).error);
  EXPECT_TRUE(p->write(kWsBase, 1).error);
}

TEST_P(HwseUnit, SectionsHandOutEachOnceInOrder) {
  auto p = make_port(GetParam());
  ok_write(*p, kSectionsInit, 5);
  for (uint64_t s = 0; s < 5; ++s) {
    const response r = p->read(kSectionsFetch);
    EXPECT_EQ(r.rdata, s);
    EXPECT_EQ(r.cycles, 1u);
  }
  EXPECT_EQ(ok_read(*p, kSectionsFetch), kNone);
  EXPECT_EQ(ok_read(*p, kSectionsFetch), kNone);
}

// Drains a loop through FETCH_ISTART / FETCH_IEND and checks every chunk
// against the model's datapath.
void drain_against_model(port &p, uint64_t count, uint64_t chunk,
                         uint64_t members) {
  ok_write(p, kLoopStart, 0);
  ok_write(p, kLoopEnd, count);
  ok_write(p, kLoopIncr, chunk);
  if (members)
    ok_write(p, kLoopMembers, members);
  weft::hwse::loop_registers model{0, count, chunk};
  for (;;) {
    uint64_t b = 0, e = 0;
    const bool got = weft::hwse::next_chunk(model, members, &b, &e);
    const response s = p.read(kFetchIstart);
    ASSERT_FALSE(s.error);
    if (!got) {
      ASSERT_EQ(s.rdata, kNone);
      EXPECT_EQ(s.cycles, 1u);
      return;
    }
    ASSERT_EQ(s.rdata, b);
    EXPECT_EQ(s.cycles, members ? kGuidedCycles : 1u);
    ASSERT_EQ(ok_read(p, kFetchIend), e);
  }
}

TEST_P(HwseUnit, DynamicLoopsMatchTheModel) {
  auto p = make_port(GetParam());
  for (uint64_t count : {0, 1, 2, 7, 64, 100, 1000})
    for (uint64_t chunk : {1, 2, 3, 7, 64, 1000, 5000})
      drain_against_model(*p, count, chunk, 0);
}

TEST_P(HwseUnit, GuidedLoopsMatchTheModel) {
  auto p = make_port(GetParam());
  for (uint64_t count : {0, 1, 5, 100, 1000, 12345})
    for (uint64_t chunk : {1, 3, 64})
      for (uint64_t members : {1, 2, 3, 4, 7, 16})
        drain_against_model(*p, count, chunk, members);
}

TEST_P(HwseUnit, HugeLoopsNeverOvershoot) {
  auto p = make_port(GetParam());
  const uint64_t big = ~uint64_t(0);
  ok_write(*p, kLoopStart, big - 10);
  ok_write(*p, kLoopEnd, big);
  ok_write(*p, kLoopIncr, big / 2);
  EXPECT_EQ(ok_read(*p, kFetchIstart), big - 10);
  EXPECT_EQ(ok_read(*p, kFetchIend), big);
  EXPECT_EQ(ok_read(*p, kFetchIstart), kNone);
}

TEST_P(HwseUnit, EndCountsPerThread) {
  auto p = make_port(GetParam());
  std::vector<uint64_t> ref(kThreads, 0);
  std::mt19937 rng(1);
  for (int i = 0; i < 500; ++i) {
    const unsigned t = rng() % kThreads;
    ok_write(*p, kEnd, t);
    ++ref[t];
  }
  for (unsigned t = 0; t < kThreads; ++t)
    EXPECT_EQ(ok_read(*p, kWsBase + t), ref[t] & 0xffff);
}

TEST_P(HwseUnit, AllocatorFreshBinsThenFifo) {
  const unsigned depth = GetParam();
  auto p = make_port(depth);
  const uint64_t base = 0x10000, bin = 192, bins = 300;
  ok_write(*p, kHeapStart, base);
  ok_write(*p, kHeapEnd, base + bins * bin);
  ok_write(*p, kHeapIncr, bin);
  std::vector<uint64_t> got;
  for (uint64_t i = 0; i < bins; ++i) {
    const response r = p->read(kAlloc);
    ASSERT_EQ(r.rdata, base + i * bin);
    EXPECT_EQ(r.cycles, 1u);
    got.push_back(r.rdata);
  }
  EXPECT_EQ(ok_read(*p, kAlloc), kNone); // heap handed out, FIFO empty
  // Free more than the FIFO holds: the excess is refused (data 0).
  std::deque<uint64_t> fifo;
  for (uint64_t i = 0; i < bins; ++i) {
    const response r = p->write(kFree, got[i]);
    ASSERT_FALSE(r.error);
    EXPECT_EQ(r.rdata, i < depth ? 1u : 0u);
    if (i < depth)
      fifo.push_back(got[i]);
  }
  EXPECT_EQ(ok_read(*p, kStatus), depth);
  // Random allocs and frees against a reference FIFO.
  std::mt19937 rng(depth);
  std::vector<uint64_t> held;
  for (int i = 0; i < 3000; ++i) {
    if (rng() % 2 && !held.empty()) {
      const size_t k = rng() % held.size();
      const response r = p->write(kFree, held[k]);
      EXPECT_EQ(r.rdata, fifo.size() < depth ? 1u : 0u);
      if (fifo.size() < depth)
        fifo.push_back(held[k]);
      held.erase(held.begin() + k);
    } else {
      const uint64_t a = ok_read(*p, kAlloc);
      if (fifo.empty()) {
        ASSERT_EQ(a, kNone);
      } else {
        ASSERT_EQ(a, fifo.front());
        fifo.pop_front();
        held.push_back(a);
      }
    }
    ASSERT_EQ(ok_read(*p, kStatus), fifo.size());
  }
  // A new heap INIT empties the FIFO.
  ok_write(*p, kHeapStart, base);
  EXPECT_EQ(ok_read(*p, kStatus), 0u);
}

INSTANTIATE_TEST_SUITE_P(Depths, HwseUnit, ::testing::Values(32u, 64u, 128u));

} // namespace
