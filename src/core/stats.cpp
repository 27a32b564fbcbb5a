// The runtime's counters: weft_stats, WEFT_STATS's report, and the engines'
// named counters.
#include "core/runtime.hpp"

#include "base/env.hpp"

#include <cstdio>
#include <cstring>

namespace weft {

bool runtime::stats_requested() {
  const char *s = env::get("WEFT_STATS");
  return s && *s != '0';
}

std::vector<engine_counter> runtime::engine_counters() const {
  engine_stats es;
  engine_->add_stats(es);
  ws_stats ws;
  ws_engine_->add_stats(ws);
  std::vector<engine_counter> out = std::move(es.counters);
  out.insert(out.end(), ws.counters.begin(), ws.counters.end());
  return out;
}

weft_stats runtime::stats() const {
  weft_stats s;
  std::memset(&s, 0, sizeof s);
  for (int i = 0; i < nthreads(); ++i) {
    worker_counters &c = workers_[i]->counters();
    s.tasks_spawned += c.spawned_all();
    s.tasks_run += c.finished_all();
    s.steals += c.steals.load(std::memory_order_relaxed);
    s.immediate_successors += c.immediate.load(std::memory_order_relaxed);
    s.sleeps += c.sleeps.load(std::memory_order_relaxed);
    s.engine_full += c.full.load(std::memory_order_relaxed);
    s.tasks_undeferred += c.undeferred_all();
    s.tasks_serialized += c.serialized.load(std::memory_order_relaxed);
  }
  engine_stats es;
  engine_->add_stats(es);
  s.deps_submitted = es.deps_submitted;
  s.edges = es.edges;
  s.peak_map_entries = es.peak_map_entries;
  s.modelled_cycles = es.modelled_cycles;
  std::snprintf(s.engine, sizeof s.engine, "%s", engine_->name());
  return s;
}

void runtime::print_stats() const {
  weft_stats s = stats();
  std::fprintf(
      stderr,
      "weft stats: engine=%s threads=%d tasks=%llu run=%llu "
      "undeferred=%llu deps=%llu edges=%llu steals=%llu immediate=%llu "
      "sleeps=%llu "
      "full=%llu serialized=%llu peak_map=%llu modelled_cycles=%llu "
      "ws_engine=%s\n",
      s.engine, const_cast<runtime *>(this)->nthreads(),
      (unsigned long long)s.tasks_spawned, (unsigned long long)s.tasks_run,
      (unsigned long long)s.tasks_undeferred,
      (unsigned long long)s.deps_submitted, (unsigned long long)s.edges,
      (unsigned long long)s.steals, (unsigned long long)s.immediate_successors,
      (unsigned long long)s.sleeps, (unsigned long long)s.engine_full,
      (unsigned long long)s.tasks_serialized,
      (unsigned long long)s.peak_map_entries,
      (unsigned long long)s.modelled_cycles, ws_engine_->name());
  uint64_t wide = 0, kept_fine = 0, backlogged = 0, backlog_peak = 0;
  for (int i = 0; i < nthreads(); ++i) {
    worker_counters &c = workers_[i]->counters();
    wide += c.wide_checks.load(std::memory_order_relaxed);
    kept_fine += c.kept_fine.load(std::memory_order_relaxed);
    backlogged += c.backlogged.load(std::memory_order_relaxed);
    uint64_t peak = c.backlog_peak.load(std::memory_order_relaxed);
    backlog_peak = peak > backlog_peak ? peak : backlog_peak;
  }
  // kept_fine: in-place rechecks that kept a creator throttled because its
  // tasks were too fine to hand off (spawn.cpp, kHandOffTicks).
  std::fprintf(stderr,
               "weft stats:   throttle_wide_checks=%llu "
               "throttle_kept_fine=%llu\n",
               (unsigned long long)wide, (unsigned long long)kept_fine);
  // Tasks a full engine sent to their worker's backlog, and the deepest
  // backlog of one worker.
  std::fprintf(stderr, "weft stats:   backlogged=%llu backlog_peak=%llu\n",
               (unsigned long long)backlogged,
               (unsigned long long)backlog_peak);
  // Where the tasks ran: each worker's share of the totals above (a
  // creator that runs its chains itself shows as one worker with nearly
  // every task and the others with few steals).
  for (int i = 0; i < nthreads(); ++i) {
    worker_counters &c = workers_[i]->counters();
    std::fprintf(
        stderr,
        "weft stats:   worker %d: run=%llu steals=%llu immediate=%llu "
        "undeferred=%llu sleeps=%llu\n",
        i, (unsigned long long)c.finished_all(),
        (unsigned long long)c.steals.load(std::memory_order_relaxed),
        (unsigned long long)c.immediate.load(std::memory_order_relaxed),
        (unsigned long long)c.undeferred_all(),
        (unsigned long long)c.sleeps.load(std::memory_order_relaxed));
  }
  for (const engine_counter &c : engine_counters())
    std::fprintf(stderr, "weft stats:   %s=%llu\n", c.name,
                 (unsigned long long)c.value);
}

} // namespace weft
