#include "core/trace_view.hpp"

#include "core/runtime.hpp"

namespace weft::trace_view {

uint64_t ready_hint(worker &w) {
  team *tm = w.current_team();
  uint64_t ready = 0;
  for (int i = 0; i < tm->size(); ++i)
    ready += static_cast<uint64_t>(tm->slot(i).deque.size_hint());
  return ready;
}

uint64_t in_flight(worker &w) {
  runtime &rt = w.rt();
  uint64_t spawned = 0, finished = 0;
  for (int i = 0; i < rt.nthreads(); ++i) {
    // In-place tasks count in both totals (worker_counters::in_place):
    // they cancel out.
    worker_counters &c = rt.worker_at(i).counters();
    finished += c.finished.load(std::memory_order_relaxed);
    spawned += c.spawned.load(std::memory_order_relaxed);
  }
  return spawned > finished ? spawned - finished : 0;
}

std::vector<open_root> open_roots_at_exit() {
  std::vector<open_root> open;
  runtime *rt = g_runtime.load(std::memory_order_acquire);
  if (!rt)
    return open;
  rt->wait_teams_left();
  for (int i = 0; i < rt->nthreads(); ++i) {
    worker &w = rt->worker_at(i);
    if (w.trace_log() && w.current_team() && w.current() == w.root())
      open.push_back({w.trace_log(), w.root()->trace_id});
  }
  return open;
}

} // namespace weft::trace_view
