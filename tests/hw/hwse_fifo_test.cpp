// hw/hwse/hwse_fifo.sv (DEPTH 32, WIDTH 64) against a reference deque:
// random pushes, pops and clears; full and empty refuse; count and head.
#include "Vhwse_fifo.h"
#include "verilated.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>

namespace {

constexpr unsigned kDepth = 32;

struct fifo_tb {
  VerilatedContext ctx;
  std::unique_ptr<Vhwse_fifo> m = std::make_unique<Vhwse_fifo>(&ctx, "fifo");
  fifo_tb() {
    m->clk_i = 0;
    m->rst_ni = 0;
    m->push_i = m->pop_i = m->clear_i = 0;
    m->eval();
    m->rst_ni = 1;
    m->eval();
  }
  ~fifo_tb() { m->final(); }
  void tick() {
    m->clk_i = 1;
    m->eval();
    m->clk_i = 0;
    m->eval();
  }
  void cycle(bool push, uint64_t v, bool pop, bool clear) {
    m->push_i = push;
    m->data_i = v;
    m->pop_i = pop;
    m->clear_i = clear;
    m->eval();
    tick();
    m->push_i = m->pop_i = m->clear_i = 0;
    m->eval();
  }
};

void expect_matches(const Vhwse_fifo &m, const std::deque<uint64_t> &ref) {
  ASSERT_EQ(m.count_o, ref.size());
  EXPECT_EQ(m.empty_o, ref.empty());
  EXPECT_EQ(m.full_o, ref.size() == kDepth);
  if (!ref.empty()) {
    EXPECT_EQ(m.head_o, ref.front());
  }
}

TEST(HwseFifo, FillsToDepthAndDrainsInOrder) {
  fifo_tb tb;
  std::deque<uint64_t> ref;
  for (uint64_t i = 0; i < kDepth + 3; ++i) { // the last 3 are refused
    tb.cycle(true, 0x1000 + i, false, false);
    if (ref.size() < kDepth)
      ref.push_back(0x1000 + i);
    expect_matches(*tb.m, ref);
  }
  EXPECT_TRUE(tb.m->full_o);
  for (unsigned i = 0; i < kDepth + 2; ++i) { // the last 2 find it empty
    tb.cycle(false, 0, true, false);
    if (!ref.empty())
      ref.pop_front();
    expect_matches(*tb.m, ref);
  }
  EXPECT_TRUE(tb.m->empty_o);
}

TEST(HwseFifo, RandomAgainstReference) {
  fifo_tb tb;
  std::deque<uint64_t> ref;
  std::mt19937_64 rng(14);
  for (int i = 0; i < 20000; ++i) {
    const unsigned r = rng() % 100;
    const bool clear = r == 0;
    const bool push = r < 55 || r % 7 == 0;
    const bool pop = r >= 45;
    const uint64_t v = rng();
    // Both in one cycle: the pop takes the old head, the push appends.
    const bool push_ok = push && ref.size() < kDepth;
    const bool pop_ok = pop && !ref.empty();
    tb.cycle(push, v, pop, clear);
    if (clear) {
      ref.clear();
    } else {
      if (pop_ok)
        ref.pop_front();
      if (push_ok)
        ref.push_back(v);
    }
    expect_matches(*tb.m, ref);
    if (HasFatalFailure())
      return;
  }
}

} // namespace
