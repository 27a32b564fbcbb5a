// Speed of the HWSE co-simulation (docs/hardware.md): RTL cycles per second
// of wall time, straight on the verilated unit's port (sections FETCHes,
// guided FETCHes) and through the hwse-rtl engine's server thread (one
// caller: the queue hand-off included). Rates are per second of wall time.
#include "engines/rtl/hwse_rtl_engine.hpp"
#include "hwse_rtl_port.hpp"

#include <benchmark/benchmark.h>

using namespace weft;
using namespace weft::hwse_rtl;

namespace {

void BM_PortSectionsFetch(benchmark::State &st) {
  auto p = make_port(128);
  const uint64_t c0 = p->cycles();
  p->write(kSectionsInit, ~uint64_t(0) - 1);
  for (auto _ : st)
    benchmark::DoNotOptimize(p->read(kSectionsFetch).rdata);
  st.counters["rtl_cycles_per_s"] =
      benchmark::Counter(double(p->cycles() - c0), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PortSectionsFetch)->UseRealTime();

void BM_PortGuidedFetch(benchmark::State &st) {
  auto p = make_port(128);
  const uint64_t c0 = p->cycles();
  p->write(kLoopStart, 0);
  p->write(kLoopEnd, ~uint64_t(0) - 1);
  p->write(kLoopIncr, 1);
  p->write(kLoopMembers, uint64_t(1) << 40); // chunks of 2^24: never drained
  for (auto _ : st)
    benchmark::DoNotOptimize(p->read(kFetchIstart).rdata);
  st.counters["rtl_cycles_per_s"] =
      benchmark::Counter(double(p->cycles() - c0), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PortGuidedFetch)->UseRealTime();

void BM_EngineDynamicFetch(benchmark::State &st) {
  hwse::config c;
  c.bins = 0;
  auto e = make_engine(c);
  ws_state ws;
  e->init(ws, ws_loop{~uint64_t(0) - 1, 2, ws_kind::dynamic, 1});
  uint64_t b, en;
  for (auto _ : st)
    benchmark::DoNotOptimize(e->fetch(ws, &b, &en));
  ws_stats s;
  e->add_stats(s);
  for (const engine_counter &k : s.counters)
    if (std::string(k.name) == "hwse_rtl.rtl_cycles")
      st.counters["rtl_cycles_per_s"] =
          benchmark::Counter(double(k.value), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EngineDynamicFetch)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
