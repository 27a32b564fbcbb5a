#include "hwse_rtl_port.hpp"

#include "Vhwse_128.h"
#include "Vhwse_32.h"
#include "Vhwse_64.h"
#include "verilated.h"

#include <cstdio>
#include <cstdlib>

namespace weft::hwse_rtl {
namespace {

// No access takes longer than the guided divide (64 / DIV_BITS + 2).
constexpr uint32_t kMaxCycles = 1000;

[[noreturn]] void die(const char *what, unsigned v) {
  std::fprintf(stderr, "weft: hwse-rtl: %s (%u)\n", what, v);
  std::abort();
}

template <class V> class model_port final : public port {
public:
  explicit model_port(unsigned depth) : depth_(depth) {
    ctx_.randReset(0);
    m_ = std::make_unique<V>(&ctx_, "hwse");
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->req_valid_i = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
  }
  ~model_port() override { m_->final(); }

  response access(bool write, unsigned addr, uint64_t wdata) override {
    m_->req_valid_i = 1;
    m_->req_write_i = write;
    m_->req_addr_i = addr;
    m_->req_wdata_i = wdata;
    // req_ready_o is a register's output: the last evaluation holds it.
    uint32_t n = 0;
    while (!m_->req_ready_o)
      step(n);
    // The edge that takes it; the request is withdrawn before the falling
    // edge is evaluated (two evaluations per cycle, none in between).
    count(n);
    m_->clk_i = 1;
    m_->eval();
    m_->req_valid_i = 0;
    m_->clk_i = 0;
    m_->eval();
    while (!m_->rsp_valid_o)
      step(n);
    return {m_->rsp_rdata_o, m_->rsp_error_o != 0, n};
  }
  uint64_t cycles() const override { return cycles_; }
  unsigned fifo_depth() const override { return depth_; }

private:
  void count(uint32_t &n) {
    if (++n > kMaxCycles)
      die("the unit did not answer an access within this many cycles",
          kMaxCycles);
    ++cycles_;
  }
  void step(uint32_t &n) {
    count(n);
    m_->clk_i = 1;
    m_->eval();
    m_->clk_i = 0;
    m_->eval();
  }

  VerilatedContext ctx_;
  std::unique_ptr<V> m_;
  unsigned depth_;
  uint64_t cycles_ = 0;
};

} // namespace

std::unique_ptr<port> make_port(unsigned fifo_depth) {
  switch (fifo_depth) {
  case 32:
    return std::make_unique<model_port<Vhwse_32>>(32);
  case 64:
    return std::make_unique<model_port<Vhwse_64>>(64);
  case 128:
    return std::make_unique<model_port<Vhwse_128>>(128);
  }
  die("no RTL model with this FIFO depth (32, 64 or 128)", fifo_depth);
}

} // namespace weft::hwse_rtl
