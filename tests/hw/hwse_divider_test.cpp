// hw/hwse/hwse_divider.sv (W 64, 4 bits per cycle): ceil(a / b) for edge and
// random operands, done after exactly W / BITS cycles, and a start while
// busy restarts the division.
#include "Vhwse_divider.h"
#include "verilated.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>

namespace {

constexpr unsigned kSteps = 64 / 4;

struct div_tb {
  VerilatedContext ctx;
  std::unique_ptr<Vhwse_divider> m =
      std::make_unique<Vhwse_divider>(&ctx, "div");
  div_tb() {
    m->clk_i = 0;
    m->rst_ni = 0;
    m->start_i = 0;
    m->eval();
    m->rst_ni = 1;
    m->eval();
  }
  ~div_tb() { m->final(); }
  void tick() {
    m->clk_i = 1;
    m->eval();
    m->clk_i = 0;
    m->eval();
  }
  void start(uint64_t a, uint64_t b) {
    m->start_i = 1;
    m->dividend_i = a;
    m->divisor_i = b;
    m->eval();
    tick();
    m->start_i = 0;
    m->eval();
  }
  // Cycles after start until done (done must come within limit).
  unsigned wait_done(unsigned limit = 100) {
    for (unsigned n = 1; n <= limit; ++n) {
      tick();
      if (m->done_o)
        return n;
    }
    return 0;
  }
};

uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

void check(div_tb &tb, uint64_t a, uint64_t b) {
  tb.start(a, b);
  ASSERT_EQ(tb.wait_done(), kSteps);
  EXPECT_EQ(tb.m->quotient_o, ceil_div(a, b)) << a << " / " << b;
  tb.tick();
  EXPECT_FALSE(tb.m->done_o) << "done lasts one cycle";
}

TEST(HwseDivider, EdgeValues) {
  div_tb tb;
  const uint64_t big = ~uint64_t(0);
  for (auto [a, b] : {std::pair<uint64_t, uint64_t>{0, 1},
                      {1, 1},
                      {7, 2},
                      {8, 2},
                      {9, 4},
                      {big, 1},
                      {big, 2},
                      {big, big},
                      {big - 1, big},
                      {1, big},
                      {100, 16},
                      {uint64_t(1) << 63, 3}})
    check(tb, a, b);
}

TEST(HwseDivider, RandomOperands) {
  div_tb tb;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t a = rng() >> (rng() % 64);
    const uint64_t b = (rng() % 2 ? rng() % 64 : rng() >> (rng() % 64)) | 1;
    check(tb, a, b);
    if (HasFailure())
      return;
  }
}

TEST(HwseDivider, StartWhileBusyRestarts) {
  div_tb tb;
  tb.start(1000, 3);
  tb.tick();
  tb.tick();
  check(tb, 1000, 7);
}

} // namespace
