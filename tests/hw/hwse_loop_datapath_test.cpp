// hw/hwse/hwse_loop_datapath.sv (XLEN 64) against the functional model's
// datapath (src/engines/hwse/hwse_loop_datapath.hpp): edge values (ends near
// 2^64, chunks covering what is left, shares above and below the chunk) and
// random ones.
#include "../../src/engines/hwse/hwse_loop_datapath.hpp"

#include "Vhwse_loop_datapath.h"
#include "verilated.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>

namespace {

struct dp_tb {
  VerilatedContext ctx;
  std::unique_ptr<Vhwse_loop_datapath> m =
      std::make_unique<Vhwse_loop_datapath>(&ctx, "dp");
  ~dp_tb() { m->final(); }
};

// The model's answer for share s (0: dynamic) from the RTL's inputs: the
// model takes the team size and divides itself, so compare on the quantum.
void check(dp_tb &tb, uint64_t start, uint64_t end, uint64_t incr,
           uint64_t share) {
  tb.m->start_i = start;
  tb.m->end_i = end;
  tb.m->incr_i = incr;
  tb.m->share_i = share;
  tb.m->eval();
  weft::hwse::loop_registers r{start, end, share > incr ? share : incr};
  uint64_t b = 0, e = 0;
  const bool got = weft::hwse::next_chunk(r, 0, &b, &e);
  ASSERT_EQ(bool(tb.m->got_o), got) << start << " " << end;
  if (got) {
    EXPECT_EQ(tb.m->begin_o, b);
    EXPECT_EQ(tb.m->end_o, e)
        << start << " " << end << " " << incr << " " << share;
  }
}

TEST(HwseLoopDatapath, EdgeValues) {
  dp_tb tb;
  const uint64_t big = ~uint64_t(0);
  check(tb, 0, 0, 1, 0);
  check(tb, 5, 5, 1, 0);
  check(tb, 6, 5, 1, 0);
  check(tb, 0, 10, 3, 0);
  check(tb, 9, 10, 3, 0);
  check(tb, 0, 10, 10, 0);
  check(tb, 0, 10, 11, 0);
  check(tb, 0, 10, 1, 4);
  check(tb, 0, 10, 5, 4);
  check(tb, big - 3, big, 2, 0);
  check(tb, big - 3, big, big, 0);
  check(tb, 0, big, big - 1, 0);
  check(tb, 1, big, big, 0);
  check(tb, big - 1, big, 1, big);
}

TEST(HwseLoopDatapath, RandomAgainstModel) {
  dp_tb tb;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const int w = int(rng() % 64) + 1; // magnitudes from tiny to 2^64
    auto v = [&] { return w == 64 ? rng() : rng() & ((uint64_t(1) << w) - 1); };
    const uint64_t start = v(), end = v();
    const uint64_t incr = (rng() % 4 == 0 ? v() : rng() % 9) | 1;
    const uint64_t share = rng() % 3 == 0 ? 0 : v();
    check(tb, start, end, incr, share);
    if (HasFailure())
      return;
  }
}

} // namespace
