// Speed of the HWSE co-simulation (docs/hardware.md): RTL cycles per second
// of wall time and per second of the process's CPU time (getrusage: every
// thread, so less dependent on the machine's load), straight on the
// verilated unit's port (sections FETCHes, guided FETCHes) and through the
// hwse-rtl engine (1, 2 and 4 callers fetching chunks of a dynamic loop).
#include "engines/rtl/hwse_rtl_engine.hpp"
#include "hwse_rtl_port.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace weft;
using namespace weft::hwse_rtl;

namespace {

double cpu_seconds() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

void report(benchmark::State &st, uint64_t cycles, double cpu) {
  st.counters["rtl_cycles_per_s"] =
      benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
  st.counters["rtl_cycles_per_cpu_s"] = double(cycles) / cpu;
}

void BM_PortSectionsFetch(benchmark::State &st) {
  auto p = make_port(128);
  const uint64_t c0 = p->cycles();
  p->write(kSectionsInit, ~uint64_t(0) - 1);
  const double cpu0 = cpu_seconds();
  for (auto _ : st)
    benchmark::DoNotOptimize(p->read(kSectionsFetch).rdata);
  report(st, p->cycles() - c0, cpu_seconds() - cpu0);
}
BENCHMARK(BM_PortSectionsFetch)->UseRealTime();

void BM_PortGuidedFetch(benchmark::State &st) {
  auto p = make_port(128);
  const uint64_t c0 = p->cycles();
  p->write(kLoopStart, 0);
  p->write(kLoopEnd, ~uint64_t(0) - 1);
  p->write(kLoopIncr, 1);
  p->write(kLoopMembers, uint64_t(1) << 40); // chunks of 2^24: never drained
  const double cpu0 = cpu_seconds();
  for (auto _ : st)
    benchmark::DoNotOptimize(p->read(kFetchIstart).rdata);
  report(st, p->cycles() - c0, cpu_seconds() - cpu0);
}
BENCHMARK(BM_PortGuidedFetch)->UseRealTime();

uint64_t rtl_cycles(const worksharing_engine &e) {
  ws_stats s;
  e.add_stats(s);
  for (const engine_counter &k : s.counters)
    if (std::string(k.name) == "hwse_rtl.rtl_cycles")
      return k.value;
  return 0;
}

// Each iteration: a dynamic loop of 20000 iterations in chunks of 2 shared
// by range(0) callers, each fetching until nothing is left, then END.
void BM_EngineDynamicFetch(benchmark::State &st) {
  const int n = int(st.range(0));
  hwse::config c;
  c.bins = 0;
  auto e = make_engine(c);
  const uint64_t c0 = rtl_cycles(*e);
  double wall = 0, cpu = 0;
  uint64_t fetches = 0;
  for (auto _ : st) {
    ws_state ws;
    const double cpu0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    e->init(ws, ws_loop{20000, 2, ws_kind::dynamic, n});
    std::vector<std::thread> th;
    std::vector<uint64_t> got(size_t(n), 0);
    for (int i = 0; i < n; ++i)
      th.emplace_back([&, i] {
        uint64_t b, en;
        while (e->fetch(ws, &b, &en))
          ++got[size_t(i)];
        e->end(ws);
      });
    for (std::thread &t : th)
      t.join();
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    st.SetIterationTime(s);
    wall += s;
    cpu += cpu_seconds() - cpu0;
    for (uint64_t g : got)
      fetches += g;
  }
  const double cycles = double(rtl_cycles(*e) - c0);
  st.counters["rtl_cycles_per_s"] = cycles / wall;
  st.counters["rtl_cycles_per_cpu_s"] = cycles / cpu;
  st.counters["ns_per_fetch"] = 1e9 * wall / double(fetches);
}
BENCHMARK(BM_EngineDynamicFetch)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
