#include "nexus_rtl_port.hpp"

#include "Vnexus_tm.h"
#include "Vnexus_tm_small.h"
#include "verilated.h"

#include <cstdio>
#include <cstdlib>

namespace weft::nexus_rtl {
namespace {

[[noreturn]] void die(const char *what) {
  std::fprintf(stderr, "weft: nexus-rtl: %s\n", what);
  std::abort();
}

struct new_word {
  uint64_t key;
  uint8_t acc; // header: n | waiter << 5
  bool header;
};

template <class V> class port_impl final : public port {
public:
  explicit port_impl(const sizes &s) : sizes_(s) {
    ctx_.debug(0);
    m_ = std::make_unique<V>(&ctx_, "nexus");
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->new_push_i = 0;
    m_->fin_push_i = 0;
    m_->rdy_pop_i = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
  }
  ~port_impl() override { m_->final(); }

  const sizes &config() const override { return sizes_; }

  void insert(const param *p, uint32_t n, bool waiter) override {
    if (n > sizes_.max_params)
      die("a task with more parameters than the unit's MAX_PARAMS");
    news_.push_back({0, uint8_t(n | (waiter ? 32u : 0u)), true});
    for (uint32_t i = 0; i < n; ++i)
      news_.push_back({p[i].key, p[i].acc, false});
  }
  void finish(uint32_t id) override { fins_.push_back(id); }

  void run(std::vector<ready_word> &out) override {
    std::size_t ni = 0, fi = 0;
    uint64_t quiet = 0;
    for (;;) {
      V &m = *m_;
      const bool fin_push = fi < fins_.size() && !m.fin_full_o;
      const bool new_push =
          fi == fins_.size() && ni < news_.size() && !m.new_full_o;
      const bool pop = !m.rdy_empty_o;
      if (!fin_push && !new_push && !pop && fi == fins_.size() &&
          ni == news_.size() && m.idle_o)
        break;
      m.fin_push_i = fin_push;
      if (fin_push)
        m.fin_data_i = fins_[fi];
      m.new_push_i = new_push;
      if (new_push) {
        const new_word &w = news_[ni];
        uint64_t lo = w.header ? w.acc : w.key;
        uint32_t hi = w.header ? 4u : w.acc; // bit 66: a header
        m.new_data_i[0] = uint32_t(lo);
        m.new_data_i[1] = uint32_t(lo >> 32);
        m.new_data_i[2] = hi;
      }
      m.rdy_pop_i = pop;
      if (pop)
        out.push_back({uint32_t(m.rdy_data_o & ((1u << id_bits()) - 1)),
                       bool(m.rdy_data_o >> id_bits())});
      m.clk_i = 1;
      m.eval();
      m.clk_i = 0;
      m.fin_push_i = 0;
      m.new_push_i = 0;
      m.rdy_pop_i = 0;
      m.eval();
      fi += fin_push;
      ni += new_push;
      quiet = fin_push || new_push || pop ? 0 : quiet + 1;
      if (quiet > 1000000)
        die("the unit made no progress for a million cycles");
    }
    fins_.clear();
    news_.clear();
  }

  bool blocked() const override { return m_->blocked_o; }
  bool error() const override { return m_->err_o; }
  counters stats() const override {
    return {m_->cyc_o,         m_->cyc_insert_o, m_->cyc_finish_o,
            m_->cyc_blocked_o, m_->inserts_o,    m_->finishes_o};
  }

private:
  unsigned id_bits() const {
    unsigned b = 0;
    while ((1u << b) < sizes_.pool)
      ++b;
    return b;
  }

  sizes sizes_;
  VerilatedContext ctx_;
  std::unique_ptr<V> m_;
  std::vector<new_word> news_;
  std::vector<uint32_t> fins_;
};

bool same(const sizes &a, const sizes &b) {
  return a.pool == b.pool && a.params == b.params &&
         a.max_params == b.max_params && a.sets == b.sets && a.ways == b.ways &&
         a.kol == b.kol && a.dummy_kol == b.dummy_kol;
}

} // namespace

std::unique_ptr<port> make_port(const sizes &s) {
  if (same(s, kTableI))
    return std::make_unique<port_impl<Vnexus_tm>>(s);
  if (same(s, kSmall))
    return std::make_unique<port_impl<Vnexus_tm_small>>(s);
  die("no unit was verilated with these sizes (kTableI and kSmall were)");
}

} // namespace weft::nexus_rtl
