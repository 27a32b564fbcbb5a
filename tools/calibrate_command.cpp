// `weft calibrate`: what the sw engine's operations cost on this machine, as
// the trace-driven simulator's `sw` model charges them (docs/mtt.md).
#include "commands.hpp"

#include <weft/weft.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace weft::cli {
namespace {

constexpr const char *kWho = "weft calibrate";
constexpr int kMaxDeps = 15;
// Tasks per batch: below the 64 unfinished children per thread at which a
// parent starts running its children undeferred (runtime.cpp throttling).
constexpr int kBatch = 48;
constexpr int kRounds = 400;         // batches per dependence count
constexpr int kTrials = 4000;        // schedule-latency samples
constexpr long kTaskwaits = 1000000; // taskwaits per timing
constexpr int kRemoteRounds = 200;   // batches per count and placement

struct calibrate_options {
  std::string out;
  int threads = 2;
};

// A linear cost: base + per_dep x dependences.
struct line_fit {
  double base, per_dep;
};

double now_ns() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Least squares over (n, y[n]), n = 0..y.size()-1.
line_fit fit(const std::vector<double> &y) {
  double n = static_cast<double>(y.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    double x = static_cast<double>(i);
    sx += x;
    sy += y[i];
    sxx += x * x;
    sxy += x * y[i];
  }
  double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {(sy - slope * sx) / n, slope};
}

std::atomic<long> g_ran{0};
long g_spawned = 0;

void count_body(void *) { g_ran.fetch_add(1, std::memory_order_relaxed); }

// A failed weft call: say which and why, and stop.
[[noreturn]] void die(const char *what, int rc) {
  std::fprintf(stderr, "%s: %s failed (%d): %s\n", kWho, what, rc,
               weft_last_error());
  std::exit(1);
}

void spawn_or_die(weft_task_fn fn, void *arg, const weft_dep *deps, int n) {
  if (int rc = weft_spawn(fn, arg, deps, n); rc != WEFT_OK)
    die("weft_spawn", rc);
  ++g_spawned;
}

double timed_taskwait() {
  double t0 = now_ns();
  if (int rc = weft_taskwait(); rc != WEFT_OK)
    die("weft_taskwait", rc);
  return now_ns() - t0;
}

// spawn(n), 1 thread: per task, the time of a loop of kBatch weft_spawn
// calls, each task with n inout dependences on addresses of its own (the
// taskwait that runs them is not timed). Median over kRounds batches.
std::vector<double> spawn_costs(std::vector<long> &buf) {
  std::vector<std::vector<double>> samples(kMaxDeps + 1);
  weft_dep deps[kMaxDeps];
  for (int round = 0; round < kRounds; ++round)
    for (int n = 0; n <= kMaxDeps; ++n) {
      double t0 = now_ns();
      for (int i = 0; i < kBatch; ++i) {
        for (int k = 0; k < n; ++k)
          deps[k] = {&buf[static_cast<size_t>(i * kMaxDeps + k)], WEFT_INOUT};
        spawn_or_die(count_body, nullptr, n ? deps : nullptr, n);
      }
      samples[static_cast<size_t>(n)].push_back((now_ns() - t0) / kBatch);
      timed_taskwait();
    }
  std::vector<double> out;
  for (auto &s : samples)
    out.push_back(median(s));
  return out;
}

// finish(n), 1 thread: groups of a task A with n inout dependences, each
// followed by a task B that reads it (so A's retirement releases n
// successors), against the same Bs reading addresses no task writes (ready
// at once). The difference of the taskwaits that run them, per A, is what
// running and retiring A costs, the release of its n successors included.
// Both batches end with one task without dependences, so that both
// taskwaits have children.
std::vector<double> finish_costs(std::vector<long> &buf) {
  std::vector<std::vector<double>> with_a(kMaxDeps + 1),
      without_a(kMaxDeps + 1);
  std::vector<int> groups(kMaxDeps + 1);
  for (int round = 0; round < kRounds; ++round)
    for (int n = 0; n <= kMaxDeps; ++n) {
      int g = std::max(1, kBatch / (n + 1));
      groups[static_cast<size_t>(n)] = g;
      for (bool a : {true, false}) {
        for (int i = 0; i < g; ++i) {
          long *base = &buf[static_cast<size_t>(i * kMaxDeps)];
          weft_dep deps[kMaxDeps];
          for (int k = 0; k < n; ++k)
            deps[k] = {base + k, WEFT_INOUT};
          if (a)
            spawn_or_die(count_body, nullptr, n ? deps : nullptr, n);
          for (int k = 0; k < n; ++k) {
            weft_dep in{base + k, WEFT_IN};
            spawn_or_die(count_body, nullptr, &in, 1);
          }
        }
        spawn_or_die(count_body, nullptr, nullptr, 0);
        (a ? with_a : without_a)[static_cast<size_t>(n)].push_back(
            timed_taskwait());
      }
    }
  std::vector<double> out;
  for (int n = 0; n <= kMaxDeps; ++n)
    out.push_back((median(with_a[static_cast<size_t>(n)]) -
                   median(without_a[static_cast<size_t>(n)])) /
                  groups[static_cast<size_t>(n)]);
  return out;
}

// taskwait, 1 thread: a taskwait with no children to wait for, per call;
// median of 9 loops of kTaskwaits.
double taskwait_cost() {
  std::vector<double> per;
  for (int r = 0; r < 9; ++r) {
    double t0 = now_ns();
    for (long i = 0; i < kTaskwaits; ++i)
      if (int rc = weft_taskwait(); rc != WEFT_OK)
        die("weft_taskwait", rc);
    per.push_back((now_ns() - t0) / kTaskwaits);
  }
  return median(per);
}

struct probe {
  std::atomic<bool> started{false};
  std::atomic<bool> done{false};
  double start_ns = 0;
  int worker = -1;
};

void probe_body(void *arg) {
  g_ran.fetch_add(1, std::memory_order_relaxed);
  probe *p = static_cast<probe *>(arg);
  p->start_ns = now_ns();
  p->worker = weft_thread_id();
  p->started.store(true, std::memory_order_release);
  p->done.store(true, std::memory_order_release);
}

// schedule, `threads` workers: worker 0 spawns a task without dependences
// (ready at once: spawn's last step queues it) and spins outside weft until
// it starts; the sample is its start time minus spawn's return, the other
// workers being idle (looking for work, not asleep: the trials follow each
// other at once; each waits for the last probe's end). Median of kTrials.
double schedule_cost() {
  std::vector<double> samples;
  probe p;
  for (int i = 0; i < kTrials; ++i) {
    p.started.store(false, std::memory_order_relaxed);
    p.done.store(false, std::memory_order_relaxed);
    spawn_or_die(probe_body, &p, nullptr, 0);
    double ready = now_ns();
    while (!p.started.load(std::memory_order_acquire)) {
    }
    if (p.worker <= 0) {
      std::fprintf(stderr,
                   "%s: schedule probe ran on worker %d, expected an idle "
                   "one (> 0)\n",
                   kWho, p.worker);
      std::exit(1);
    }
    samples.push_back(p.start_ns - ready);
    while (!p.done.load(std::memory_order_acquire)) {
    }
  }
  timed_taskwait();
  return median(samples);
}

// spawn_remote_ns: the median over n = 1..kMaxDeps of what spawning a task
// whose n predecessors ran on the other worker costs more than one whose n
// predecessors ran on the spawning one. Measured flat in n (2026-11-28,
// docs/simulator.md: 33-36 ns, or 201-211 in this machine's slow mode, at
// every n from 2 to 15): the first remote predecessor pays, the others'
// misses overlap it; so one cost per task, not per dependence.
double remote_extra(const std::vector<double> &local,
                    const std::vector<double> &remote) {
  std::vector<double> extra;
  for (size_t n = 1; n < local.size(); ++n)
    extra.push_back(remote[n] - local[n]);
  return median(extra);
}

// Lines of its own: the spinning worker must not share one with what the
// timed loop writes.
struct alignas(128) blocker {
  std::atomic<bool> started{false};
  std::atomic<bool> release{false};
  int worker = -1;
};

// Keeps the worker that takes it busy until released, so that it neither
// runs nor steals the creator's tasks meanwhile.
void blocker_body(void *arg) {
  g_ran.fetch_add(1, std::memory_order_relaxed);
  blocker *b = static_cast<blocker *>(arg);
  b->worker = weft_thread_id();
  b->started.store(true, std::memory_order_release);
  while (!b->release.load(std::memory_order_acquire)) {
  }
}

// A predecessor: records the worker that ran it in its int.
void pred_body(void *arg) {
  *static_cast<int *>(arg) = weft_thread_id();
  g_ran.fetch_add(1, std::memory_order_release);
}

void wait_started(blocker &b) {
  while (!b.started.load(std::memory_order_acquire)) {
  }
  if (b.worker != 1) {
    std::fprintf(stderr,
                 "%s: the blocker ran on worker %d, expected the idle "
                 "worker 1\n",
                 kWho, b.worker);
    std::exit(1);
  }
}

void taskgroup_or_die(bool begin) {
  if (int rc = begin ? weft_taskgroup_begin() : weft_taskgroup_end();
      rc != WEFT_OK)
    die(begin ? "weft_taskgroup_begin" : "weft_taskgroup_end", rc);
}

// spawn_remote(n), 2 workers: the time of a loop of kBatch weft_spawn
// calls (worker 0) of tasks with n inout dependences, each on an address of
// its own whose last writer, a predecessor task without other dependences,
// has run and retired, on worker 1 (remote) or on worker 0 (local).
// Worker 1 is kept busy by a blocker task during the timed loop in both
// placements (no steal); the predecessors run in taskgroups of at most
// kBatch (below the throttle's window): remote ones while worker 0 spins
// outside weft until they ran, local ones in taskgroup_end with worker 1
// blocked; every predecessor's worker is checked. Median per n and
// placement over kRemoteRounds, placements alternating.
void spawn_placed_costs(std::vector<long> &buf, std::vector<double> &local,
                        std::vector<double> &remote) {
  std::vector<std::vector<double>> samples[2];
  samples[0].resize(kMaxDeps + 1);
  samples[1].resize(kMaxDeps + 1);
  std::vector<int> ran_on(static_cast<size_t>(kBatch * kMaxDeps));
  weft_dep deps[kMaxDeps];
  for (int round = 0; round < kRemoteRounds; ++round)
    for (int n = 0; n <= kMaxDeps; ++n)
      for (int r = 0; r < 2; ++r) {
        bool far = (r + round) % 2 == 1; // alternate which placement is first
        int want = far ? 1 : 0;
        int preds = kBatch * n;
        blocker b;
        if (!far) {
          spawn_or_die(blocker_body, &b, nullptr, 0);
          wait_started(b);
        }
        for (int first = 0; first < preds; first += kBatch) {
          int last = std::min(preds, first + kBatch);
          long ran0 = g_ran.load(std::memory_order_relaxed);
          taskgroup_or_die(true);
          for (int p = first; p < last; ++p) {
            ran_on[static_cast<size_t>(p)] = -1;
            weft_dep out{&buf[static_cast<size_t>(p)], WEFT_INOUT};
            spawn_or_die(pred_body, &ran_on[static_cast<size_t>(p)], &out, 1);
          }
          if (far)
            while (g_ran.load(std::memory_order_acquire) - ran0 <
                   last - first) {
            }
          taskgroup_or_die(false); // retired (and, locally, run here)
        }
        for (int p = 0; p < preds; ++p)
          if (ran_on[static_cast<size_t>(p)] != want) {
            std::fprintf(stderr,
                         "%s: a %s predecessor ran on worker %d, expected "
                         "%d\n",
                         kWho, far ? "remote" : "local",
                         ran_on[static_cast<size_t>(p)], want);
            std::exit(1);
          }
        if (far) {
          spawn_or_die(blocker_body, &b, nullptr, 0);
          wait_started(b);
        }
        double t0 = now_ns();
        for (int i = 0; i < kBatch; ++i) {
          for (int k = 0; k < n; ++k)
            deps[k] = {&buf[static_cast<size_t>(i * n + k)], WEFT_INOUT};
          spawn_or_die(count_body, nullptr, n ? deps : nullptr, n);
        }
        samples[far][static_cast<size_t>(n)].push_back((now_ns() - t0) /
                                                       kBatch);
        b.release.store(true, std::memory_order_release);
        timed_taskwait();
      }
  for (int n = 0; n <= kMaxDeps; ++n) {
    local.push_back(median(samples[0][static_cast<size_t>(n)]));
    remote.push_back(median(samples[1][static_cast<size_t>(n)]));
  }
}

void start(int threads) {
  if (int rc = weft_init(threads); rc != WEFT_OK)
    die("weft_init", rc);
}

// The runtime about to stop ran every task it was given deferred: none in
// place (the throttle) nor serialised (a full engine), or the costs
// measured are not the deferred path's that the sw model charges. Adds
// the runtime's tasks to *deferred.
void check_deferred(const char *phase, uint64_t *deferred) {
  weft_stats s;
  if (int rc = weft_stats_get(&s); rc != WEFT_OK)
    die("weft_stats_get", rc);
  if (s.tasks_undeferred != 0 || s.tasks_serialized != 0) {
    std::fprintf(stderr,
                 "%s: %s: %llu of %llu tasks ran in place and %llu "
                 "serialised: the costs would be the in-place path's, not "
                 "the deferred one the sw model charges\n",
                 kWho, phase, (unsigned long long)s.tasks_undeferred,
                 (unsigned long long)s.tasks_spawned,
                 (unsigned long long)s.tasks_serialized);
    std::exit(1);
  }
  *deferred += s.tasks_spawned;
}

void stop() {
  if (int rc = weft_shutdown(); rc != WEFT_OK)
    die("weft_shutdown", rc);
}

int calibrate(const calibrate_options &o) {
  namespace fs = std::filesystem;
  setenv("WEFT_ENGINE", "sw", 1); // the engine calibrated
  // The costs of deferred tasks and of hand-offs: the throttle must not
  // take these empty tasks for fine ones and run them in place (its probe
  // points and in-place rechecks, core/spawn.cpp): at 1 thread the spawn
  // and finish batches would measure in-place tasks (spawn_base_ns 16 ns
  // instead of a deferral's), at 2 the schedule probe no hand-off.
  setenv("WEFT_THROTTLE_GRAIN", "coarse", 1);
  std::vector<long> buf(static_cast<size_t>(kBatch * kMaxDeps));

  start(1);
  std::vector<double> spawn = spawn_costs(buf);
  std::vector<double> finish = finish_costs(buf);
  double taskwait = taskwait_cost();
  uint64_t deferred = 0;
  check_deferred("spawn and finish batches (1 thread)", &deferred);
  stop();
  start(o.threads);
  double schedule = schedule_cost();
  check_deferred("schedule probes", &deferred);
  stop();
  start(2);
  std::vector<double> local, remote;
  spawn_placed_costs(buf, local, remote);
  check_deferred("remote predecessor batches (2 threads)", &deferred);
  stop();
  // Every task spawned ran: the batches were real work for the runtime.
  if (g_ran.load() != g_spawned) {
    std::fprintf(stderr, "%s: %ld tasks ran, %ld spawned\n", kWho, g_ran.load(),
                 g_spawned);
    return 1;
  }

  line_fit s = fit(spawn), f = fit(finish);
  nlohmann::ordered_json j;
  j["engine"] = "sw";
  j["threads"] = o.threads;
  j["spawn_base_ns"] = s.base;
  j["spawn_per_dep_ns"] = s.per_dep;
  j["schedule_ns"] = schedule;
  j["finish_base_ns"] = f.base;
  j["finish_per_dep_ns"] = f.per_dep;
  j["taskwait_ns"] = taskwait;
  j["spawn_remote_ns"] = remote_extra(local, remote);

  fs::path path =
      (o.out.empty() ? fs::path(".") : fs::path(o.out)) / "calibration.json";
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream file(path);
  if (ec || !file) {
    std::fprintf(stderr, "%s: --out %s: cannot write it: %s\n", kWho,
                 path.c_str(),
                 ec ? ec.message().c_str() : std::strerror(errno));
    return 1;
  }
  file << j.dump(2) << "\n";
  file.close();
  if (!file) {
    std::fprintf(stderr, "%s: writing %s failed\n", kWho, path.c_str());
    return 1;
  }
  std::printf("deps  spawn ns  finish ns  spawn after local / remote "
              "predecessors ns   (medians; the fits below)\n");
  for (int n = 0; n <= kMaxDeps; ++n)
    std::printf("%4d  %8.1f  %9.1f  %8.1f / %8.1f\n", n,
                spawn[static_cast<size_t>(n)], finish[static_cast<size_t>(n)],
                local[static_cast<size_t>(n)], remote[static_cast<size_t>(n)]);
  std::printf("%s\n%s\n", j.dump(2).c_str(), path.c_str());
  std::printf("deferred tasks: %llu of %ld (none in place)\n",
              (unsigned long long)deferred, g_spawned);
  for (auto &[key, value] : j.items())
    if (value.is_number_float() &&
        !(std::isfinite(value.get<double>()) && value.get<double>() > 0)) {
      std::fprintf(stderr,
                   "%s: %s = %g is not a positive cost: the machine was too "
                   "busy to measure it; run again\n",
                   kWho, key.c_str(), value.get<double>());
      return 1;
    }
  return 0;
}

} // namespace

command add_calibrate_command(CLI::App &app) {
  auto o = std::make_shared<calibrate_options>();
  CLI::App *sub = app.add_subcommand(
      "calibrate", "Measure the sw engine's per-operation costs for the "
                   "simulator's sw model (JSON)");
  sub->add_option("-o,--out", o->out,
                  "folder for calibration.json, created if needed (default: "
                  "the current folder, where weft sim --model sw looks)");
  sub->add_option("--threads", o->threads,
                  "workers for the schedule-latency measurement, the "
                  "spawning one included (default 2)")
      ->check(CLI::Range(2, 4096));
  return {sub, [o] { return calibrate(*o); }};
}

} // namespace weft::cli
