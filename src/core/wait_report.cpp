#include "wait_report.hpp"

#include "base/env.hpp"
#include "base/error.hpp"
#include "runtime.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace weft {

void wait_record::enter(wait_kind k, const task *t, const void *a) {
  waiting_task.store(t, std::memory_order_relaxed);
  addr.store(a, std::memory_order_relaxed);
  created.store(t ? t->created : 0, std::memory_order_relaxed);
  root.store(t && (t->flags & TASK_ROOT), std::memory_order_relaxed);
  kind.store(static_cast<int>(k), std::memory_order_release);
}

bool debug_enabled(const char *what) {
  return env::list_has("WEFT_DEBUG", what);
}

wait_watchdog::wait_watchdog(runtime &rt) : rt_(rt) {
  if (!debug_enabled("waits"))
    return;
  env::reader r;
  r.number("WEFT_DEBUG_WAIT_SECONDS", 0, 1e9, true, period_s_,
           "a number of seconds");
  if (!r.ok())
    fatal("%s", r.error().c_str());
  thread_ = std::thread([this] { run(); });
}

wait_watchdog::~wait_watchdog() {
  if (!thread_.joinable())
    return;
  {
    std::lock_guard<std::mutex> lk(lock_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
}

namespace {
const char *kind_name(int k) {
  switch (static_cast<wait_kind>(k)) {
  case wait_kind::none:
    return "running or looking for work";
  case wait_kind::taskwait:
    return "taskwait";
  case wait_kind::taskwait_on:
    return "taskwait on";
  case wait_kind::taskgroup:
    return "taskgroup end";
  case wait_kind::shutdown:
    return "shutdown (every task)";
  case wait_kind::barrier:
    return "barrier";
  }
  return "?";
}
} // namespace

std::string wait_watchdog::report() const {
  std::ostringstream out;
  for (int i = 0; i < rt_.nthreads(); ++i) {
    worker &w = rt_.worker_at(i);
    const wait_record &r = w.wait_state();
    int k = r.kind.load(std::memory_order_acquire);
    const task *t = r.waiting_task.load(std::memory_order_relaxed);
    out << "  worker " << i << ": " << kind_name(k);
    if (k != 0 && t) {
      out << " in task " << static_cast<const void *>(t)
          << (r.root.load(std::memory_order_relaxed)
                  ? " (the thread's implicit task)"
                  : "");
      if (k == static_cast<int>(wait_kind::taskwait)) {
        // The task is blocked in this wait: its descriptor is alive.
        uint64_t created = r.created.load(std::memory_order_relaxed);
        uint64_t fin =
            finished_children(t->children.load(std::memory_order_relaxed));
        out << ", " << (created - fin) << " of " << created
            << " children unfinished";
      }
      if (const void *a = r.addr.load(std::memory_order_relaxed))
        out << ", address " << a;
    }
    if (w.sleeping())
      out << " [asleep]";
    out << '\n';
  }
  return out.str();
}

void wait_watchdog::run() {
  using clock = std::chrono::steady_clock;
  auto period = std::chrono::duration_cast<clock::duration>(
      std::chrono::duration<double>(period_s_));
  uint64_t last = ~uint64_t(0);
  std::unique_lock<std::mutex> lk(lock_);
  while (!stop_cv_.wait_for(lk, period, [this] { return stop_; })) {
    uint64_t finished = 0;
    bool someone_waits = false;
    for (int i = 0; i < rt_.nthreads(); ++i) {
      worker &w = rt_.worker_at(i);
      finished += w.counters().finished_all();
      someone_waits |= w.wait_state().kind.load(std::memory_order_acquire) != 0;
    }
    if (finished == last && someone_waits) {
      std::string r = report();
      std::fprintf(stderr,
                   "weft: no task finished for %.1f s; what each worker "
                   "waits for:\n%s",
                   period_s_, r.c_str());
      std::fflush(stderr);
    }
    last = finished;
  }
}

} // namespace weft
